// Package authtest holds what tests of code that signs in with device
// attestation need: an Attestor that makes real, checkable proofs without a
// device, which the reference server (platformtest) accepts and a
// production server does not.
//
//	creds, err := auth.NewDeviceAttestationCredentials(auth.DeviceAttestationConfig{
//		ClientID: clientID, AppID: appID,
//		Attestor: authtest.NewAttestor(appID),
//		Now:      clock.Now, // optional: expiry by the test's clock
//	})
package authtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"

	"github.com/agentplatform/agentplatform-go/auth"
)

// Format is the proof format Attestor produces and the reference server
// verifies by default (docs/auth-wire.md 4.4).
const Format = "vendor-test-v1"

// Attestor is an auth.Attestor for tests and development: it produces
// vendor-test-v1 proofs with ECDSA P-256 keys held in memory. Those proofs
// are real, checkable signatures, but they prove nothing about a device, and
// a production server does not accept them. It is safe for concurrent use.
type Attestor struct {
	appID string

	mu   sync.Mutex
	keys map[string]*testKey
}

type testKey struct {
	priv    *ecdsa.PrivateKey
	pub     []byte // 65-byte uncompressed point
	counter uint32
}

var _ auth.Attestor = (*Attestor)(nil)

// NewAttestor returns an attestor for the app appID ("<TEAMID>.<bundle
// id>"), which it signs into every proof as a real device binds the App ID.
// A different appID than the one sent to the server stands for a tampered
// build.
func NewAttestor(appID string) *Attestor {
	return &Attestor{appID: appID, keys: map[string]*testKey{}}
}

// GenerateKey creates a P-256 key; its id is the standard base64 of the
// SHA-256 of the uncompressed public key.
func (a *Attestor) GenerateKey(context.Context) (string, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", err
	}
	pub, err := priv.PublicKey.Bytes()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(pub)
	id := base64.StdEncoding.EncodeToString(sum[:])
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keys[id] = &testKey{priv: priv, pub: pub}
	return id, nil
}

var errUnknownTestKey = errors.New("authtest: unknown key id")

// AttestKey signs "attest" ‖ 0x00 ‖ app id ‖ 0x00 ‖ clientDataHash and
// returns {"fmt", "public_key", "signature"} as JSON.
func (a *Attestor) AttestKey(_ context.Context, keyID string, clientDataHash []byte) ([]byte, error) {
	a.mu.Lock()
	k := a.keys[keyID]
	a.mu.Unlock()
	if k == nil {
		return nil, errUnknownTestKey
	}
	sig, err := signES256(k.priv, a.message("attest", nil, clientDataHash))
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"fmt":        Format,
		"public_key": base64.StdEncoding.EncodeToString(k.pub),
		"signature":  base64.StdEncoding.EncodeToString(sig),
	})
}

// GenerateAssertion increments the key's counter and signs "assert" ‖ 0x00
// ‖ app id ‖ 0x00 ‖ counter (4 bytes, big-endian) ‖ clientDataHash,
// returning {"fmt", "counter", "signature"} as JSON.
func (a *Attestor) GenerateAssertion(_ context.Context, keyID string, clientDataHash []byte) ([]byte, error) {
	a.mu.Lock()
	k := a.keys[keyID]
	var counter uint32
	if k != nil {
		k.counter++
		counter = k.counter
	}
	a.mu.Unlock()
	if k == nil {
		return nil, errUnknownTestKey
	}
	sig, err := signES256(k.priv, a.message("assert", binary.BigEndian.AppendUint32(nil, counter), clientDataHash))
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"fmt":       Format,
		"counter":   counter,
		"signature": base64.StdEncoding.EncodeToString(sig),
	})
}

// Counter returns the key's assertion counter (0 before the first assertion).
func (a *Attestor) Counter(keyID string) uint32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if k := a.keys[keyID]; k != nil {
		return k.counter
	}
	return 0
}

func (a *Attestor) message(label string, counter, clientDataHash []byte) []byte {
	m := make([]byte, 0, len(label)+len(a.appID)+len(counter)+len(clientDataHash)+2)
	m = append(m, label...)
	m = append(m, 0)
	m = append(m, a.appID...)
	m = append(m, 0)
	m = append(m, counter...)
	return append(m, clientDataHash...)
}

// signES256 returns the 64-byte r‖s signature of SHA-256(msg).
func signES256(priv *ecdsa.PrivateKey, msg []byte) ([]byte, error) {
	digest := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, priv, digest[:])
	if err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig, nil
}

// String hides the keys.
func (a *Attestor) String() string { return "authtest.Attestor(" + a.appID + ")" }

// GoString hides the keys too.
func (a *Attestor) GoString() string { return a.String() }
