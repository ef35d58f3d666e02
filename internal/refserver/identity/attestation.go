package identity

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"time"
)

// Device attestation (docs/auth-wire.md section 4): app integrations, the
// verifier interface of App Attest proofs, and the vendor-test-v1 format
// that TestAttestationVerifier, the server's verifier, checks. The endpoints are in
// attestation_exchange.go.

// AppIntegration is a registered iOS or macOS app (docs/auth-wire.md 4.1). Its id,
// clid_…, is the public client id built into the app.
type AppIntegration struct {
	Name        string   // free text
	WorkspaceID string   // the workspace its tokens are bound to and bill to
	TeamID      string   // Apple Team ID: 10 uppercase letters or digits
	BundleIDs   []string // 1–32 bundle ids: letters, digits, - and ., 1–155 characters
	// AllowDevelopment accepts development builds (Apple's aaguid
	// appattestdevelop); passed to the verifier.
	AllowDevelopment bool
}

// AttestationVerifier checks the proofs of the device attestation grant
// (docs/auth-wire.md 4.4). The server checks everything else: the challenge, the
// integration and its app ids, the workspace, the key's state, and that an
// assertion's counter increases. Implementations must be safe for concurrent
// use; they are called without the server's lock. The server uses
// TestAttestationVerifier, which checks the vendor-test-v1 format; a
// verifier of Apple's format would implement the same interface over the
// same wire.
type AttestationVerifier interface {
	// VerifyAttestation checks the attestation of a new key and returns
	// the key's public key, in whatever form VerifyAssertion needs it.
	VerifyAttestation(AttestationCheck) (publicKey []byte, err error)
	// VerifyAssertion checks an assertion made with an attested key and
	// returns its counter; the server then requires it to exceed the
	// stored one.
	VerifyAssertion(AssertionCheck) (counter uint32, err error)
}

// AttestationCheck is an attestation to verify.
type AttestationCheck struct {
	AppID            string   // <Team ID>.<bundle id>, registered on the integration
	KeyID            string   // as sent: standard base64 of SHA-256 of the public key
	ClientDataHash   [32]byte // SHA-256 of the challenge's UTF-8 bytes
	Attestation      []byte   // the decoded attestation object
	AllowDevelopment bool
}

// AssertionCheck is an assertion to verify.
type AssertionCheck struct {
	AppID          string
	KeyID          string
	ClientDataHash [32]byte
	Assertion      []byte // the decoded assertion
	PublicKey      []byte // from VerifyAttestation
	StoredCounter  uint32 // the last accepted counter (0 after attestation)
}

// AttestationFormatTest is the fmt of the vendor-test-v1 proofs.
const AttestationFormatTest = "vendor-test-v1"

// TestAttestationVerifier checks the vendor-test-v1 format (docs/auth-wire.md 4.4):
// an attestation is {"fmt", "public_key": base64 of the 65-byte uncompressed
// P-256 point, "signature": base64 of r‖s over "attest" 0x00 app_id 0x00
// clientDataHash}; an assertion is {"fmt", "counter" ≥ 1, "signature" over
// "assert" 0x00 app_id 0x00 counter (4 bytes, big-endian) clientDataHash},
// made with the attested key. It proves nothing about a device.
type TestAttestationVerifier struct{}

type testAttestation struct {
	Fmt       string `json:"fmt"`
	PublicKey string `json:"public_key"`
	Signature string `json:"signature"`
}

type testAssertion struct {
	Fmt       string          `json:"fmt"`
	Counter   json.RawMessage `json:"counter"`
	Signature string          `json:"signature"`
}

// VerifyAttestation implements AttestationVerifier.
func (TestAttestationVerifier) VerifyAttestation(in AttestationCheck) ([]byte, error) {
	var a testAttestation
	if err := json.Unmarshal(in.Attestation, &a); err != nil {
		return nil, errors.New("attestation is not a JSON object")
	}
	if a.Fmt != AttestationFormatTest {
		return nil, fmt.Errorf("attestation fmt %q", a.Fmt)
	}
	point, err := base64.StdEncoding.Strict().DecodeString(a.PublicKey)
	if err != nil {
		return nil, errors.New("public_key is not base64")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		return nil, errors.New("public_key is not an uncompressed P-256 point")
	}
	sum := sha256.Sum256(point)
	if base64.StdEncoding.EncodeToString(sum[:]) != in.KeyID {
		return nil, errors.New("key_id is not the SHA-256 of public_key")
	}
	msg := testProofMessage("attest", in.AppID, nil, in.ClientDataHash)
	if err := verifyES256(pub, msg, a.Signature); err != nil {
		return nil, err
	}
	return point, nil
}

// VerifyAssertion implements AttestationVerifier.
func (TestAttestationVerifier) VerifyAssertion(in AssertionCheck) (uint32, error) {
	var a testAssertion
	if err := json.Unmarshal(in.Assertion, &a); err != nil {
		return 0, errors.New("assertion is not a JSON object")
	}
	if a.Fmt != AttestationFormatTest {
		return 0, fmt.Errorf("assertion fmt %q", a.Fmt)
	}
	var counter uint64
	if err := json.Unmarshal(a.Counter, &counter); err != nil || counter < 1 || counter > math.MaxUint32 {
		return 0, errors.New("counter must be an integer between 1 and 2^32-1")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), in.PublicKey)
	if err != nil {
		return 0, errors.New("stored public key is not a P-256 point")
	}
	var be [4]byte
	binary.BigEndian.PutUint32(be[:], uint32(counter))
	msg := testProofMessage("assert", in.AppID, be[:], in.ClientDataHash)
	if err := verifyES256(pub, msg, a.Signature); err != nil {
		return 0, err
	}
	return uint32(counter), nil
}

// testProofMessage is label 0x00 app_id 0x00 [counter] clientDataHash.
func testProofMessage(label, appID string, counter []byte, cdh [32]byte) []byte {
	var b bytes.Buffer
	b.WriteString(label)
	b.WriteByte(0)
	b.WriteString(appID)
	b.WriteByte(0)
	b.Write(counter)
	b.Write(cdh[:])
	return b.Bytes()
}

// verifyES256 checks a base64 64-byte r‖s signature over SHA-256(msg).
func verifyES256(pub *ecdsa.PublicKey, msg []byte, sig64 string) error {
	sig, err := base64.StdEncoding.Strict().DecodeString(sig64)
	if err != nil || len(sig) != 64 {
		return errors.New("signature must be base64 of 64 bytes (r‖s)")
	}
	digest := sha256.Sum256(msg)
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, digest[:], r, s) {
		return errors.New("signature does not verify")
	}
	return nil
}

var (
	teamIDPattern   = regexp.MustCompile(`^[A-Z0-9]{10}$`)
	bundleIDPattern = regexp.MustCompile(`^[A-Za-z0-9.-]{1,155}$`)
	appIDPattern    = regexp.MustCompile(`^[A-Z0-9]{10}\.[A-Za-z0-9.-]{1,155}$`)
)

type appIntegration struct {
	id      string
	cfg     AppIntegration // BundleIDs is a private copy
	revoked bool
	keys    map[string]*attestedKey // by key_id
}

type attestedKey struct {
	publicKey []byte
	counter   uint32
}

type deviceChallenge struct {
	clientID  string
	expiresAt time.Time
	spent     bool
}

// attestationState is guarded by Service.mu and usable as its zero value.
type attestationState struct {
	integrations  map[string]*appIntegration
	challenges    map[[32]byte]*deviceChallenge // by digest of the challenge
	challengeAdds int
}

// AddAppIntegration registers an app integration and returns its client id
// (clid_…).
func (s *Service) AddAppIntegration(cfg AppIntegration) (string, error) {
	if !teamIDPattern.MatchString(cfg.TeamID) {
		return "", errors.New("TeamID must be 10 uppercase letters or digits")
	}
	if n := len(cfg.BundleIDs); n < 1 || n > 32 {
		return "", errors.New("an app integration needs 1–32 BundleIDs")
	}
	for _, b := range cfg.BundleIDs {
		if !bundleIDPattern.MatchString(b) {
			return "", fmt.Errorf("bundle id %q: letters, digits, - and ., 1–155 characters", b)
		}
	}
	cfg.BundleIDs = append([]string(nil), cfg.BundleIDs...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.activeWorkspaceLocked(cfg.WorkspaceID); err != nil {
		return "", err
	}
	st := &s.devices
	if st.integrations == nil {
		st.integrations = map[string]*appIntegration{}
	}
	in := &appIntegration{id: s.cfg.ids("clid_"), cfg: cfg, keys: map[string]*attestedKey{}}
	st.integrations[in.id] = in
	return in.id, nil
}

// RevokeAppIntegration revokes an integration, permanently: its tokens stop
// working at once (401 `access token has been revoked`) and its devices get
// no new ones. Revoking twice is fine.
func (s *Service) RevokeAppIntegration(clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.devices.integrations[clientID]
	if !ok {
		return fmt.Errorf("app integration %s not found", clientID)
	}
	in.revoked = true
	return nil
}

func (s *Service) integrationRevokedLocked(clientID string) bool {
	in, ok := s.devices.integrations[clientID]
	return !ok || in.revoked
}

func (s *Service) attestationVerifier() AttestationVerifier {
	return TestAttestationVerifier{}
}
