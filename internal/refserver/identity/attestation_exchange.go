package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The device attestation endpoints (docs/auth-wire.md 4.2–4.6): a challenge,
// then the device-attestation grant of POST /v1/oauth/token with an
// attestation (a new key) or an assertion (an attested key). The proof is
// checked without Service.mu; the state it depends on is checked again under
// the lock before anything is stored.

const (
	grantDevice          = "device-attestation" // ExchangeDenial.Grant
	grantChallenge       = "challenge"
	challengeLifetime    = 300 * time.Second
	deviceTokenLifetime  = 3600 // seconds: device tokens expire after one hour
	maxAttestationChars  = 65536
	maxAssertionChars    = 8192
	challengeSweepEvery  = 64
	msgChallengeUnusable = "unknown, expired or already used; request a new challenge"
)

// deviceChallenge is POST /v1/oauth/device_attestation/challenge.
func (s *Service) deviceChallenge(c *kit.Call) error {
	f, err := readExchangeBody(c)
	if err != nil {
		return err
	}
	if err := f.onlyKnown("client_id"); err != nil {
		return err
	}
	clientID, err := readClientID(f)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.devices.integrations[clientID]
	switch {
	case !ok:
		return s.deny(c, grantChallenge, "client_unknown")
	case in.revoked:
		return s.deny(c, grantChallenge, "client_revoked")
	}
	var b [32]byte
	rand.Read(b[:])
	challenge := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.cfg.clock.Now()
	st := &s.devices
	if st.challenges == nil {
		st.challenges = map[[32]byte]*deviceChallenge{}
	}
	st.challengeAdds++
	if st.challengeAdds%challengeSweepEvery == 0 {
		for d, ch := range st.challenges {
			if ch.spent || !now.Before(ch.expiresAt) {
				delete(st.challenges, d)
			}
		}
	}
	st.challenges[secretDigest(challenge)] = &deviceChallenge{clientID: clientID, expiresAt: now.Add(challengeLifetime)}
	return c.OK(struct {
		Type      string `json:"type"`
		Challenge string `json:"challenge"`
		ExpiresIn int    `json:"expires_in"`
	}{"device_attestation_challenge", challenge, int(challengeLifetime / time.Second)})
}

func readClientID(f *jsonFields) (string, error) {
	id, _, err := f.str("client_id", true)
	if err != nil {
		return "", err
	}
	if !validPrefixedID("clid_", id) {
		return "", kit.InvalidField("client_id", "must be an app integration client ID (`clid_…`)")
	}
	return id, nil
}

type deviceRequest struct {
	clientID    string
	appID       string
	keyID       string
	challenge   string
	proof       []byte // decoded attestation or assertion
	attesting   bool   // proof is an attestation
	workspaceID string // "", "default" or a wrkspc_ id
}

// readDeviceBody is step 1 of docs/auth-wire.md 4.3: the fields in table order,
// after the keys the grant does not know.
func readDeviceBody(f *jsonFields) (deviceRequest, error) {
	var req deviceRequest
	if err := f.onlyKnown("grant_type", "client_id", "app_id", "key_id", "challenge", "attestation", "assertion", "workspace_id"); err != nil {
		return req, err
	}
	var err error
	if req.clientID, err = readClientID(f); err != nil {
		return req, err
	}
	if req.appID, _, err = f.str("app_id", true); err != nil {
		return req, err
	}
	if !appIDPattern.MatchString(req.appID) {
		return req, kit.InvalidField("app_id", "must be <team id>.<bundle id>")
	}
	if req.keyID, _, err = f.str("key_id", true); err != nil {
		return req, err
	}
	if raw, err := base64.StdEncoding.Strict().DecodeString(req.keyID); err != nil || len(raw) != sha256.Size {
		return req, kit.InvalidField("key_id", "must be the base64 encoding of 32 bytes")
	}
	if req.challenge, _, err = f.str("challenge", true); err != nil {
		return req, err
	}
	switch hasAttestation, hasAssertion := f.has("attestation"), f.has("assertion"); {
	case hasAttestation && hasAssertion:
		return req, kit.InvalidField("attestation", "cannot be combined with assertion")
	case !hasAttestation && !hasAssertion:
		return req, kit.InvalidField("attestation", "is required when assertion is absent")
	case hasAttestation:
		req.attesting = true
		req.proof, err = readProof(f, "attestation", maxAttestationChars)
	default:
		req.proof, err = readProof(f, "assertion", maxAssertionChars)
	}
	if err != nil {
		return req, err
	}
	if req.workspaceID, err = checkWorkspaceField(f); err != nil {
		return req, err
	}
	return req, nil
}

// readProof reads a standard-base64 proof of at most maxChars characters.
func readProof(f *jsonFields, field string, maxChars int) ([]byte, error) {
	v, _, err := f.str(field, true)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckLength(field, v, 1, maxChars); err != nil {
		return nil, err
	}
	proof, err := base64.StdEncoding.Strict().DecodeString(v)
	if err != nil {
		return nil, kit.InvalidField(field, "must be standard base64")
	}
	return proof, nil
}

// deviceExchange runs the device attestation grant once grant_type is known.
func (s *Service) deviceExchange(c *kit.Call, f *jsonFields) error {
	req, err := readDeviceBody(f)
	if err != nil {
		return err
	}
	cdh := sha256.Sum256([]byte(req.challenge))

	// Steps 2–5 up to the proof, under the lock.
	s.mu.Lock()
	if err := s.spendChallengeLocked(req); err != nil {
		s.mu.Unlock()
		return err
	}
	in, key, err := s.deviceTargetLocked(c, req)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	allowDev := in.cfg.AllowDevelopment
	var publicKey []byte
	var stored uint32
	if key != nil {
		publicKey, stored = key.publicKey, key.counter
	}
	s.mu.Unlock()

	// The proof, without the lock.
	v := s.attestationVerifier()
	var counter uint32
	if req.attesting {
		publicKey, err = v.VerifyAttestation(AttestationCheck{
			AppID: req.appID, KeyID: req.keyID, ClientDataHash: cdh, Attestation: req.proof, AllowDevelopment: allowDev,
		})
		if err != nil {
			return s.deny(c, grantDevice, "attestation_rejected")
		}
	} else {
		counter, err = v.VerifyAssertion(AssertionCheck{
			AppID: req.appID, KeyID: req.keyID, ClientDataHash: cdh, Assertion: req.proof, PublicKey: publicKey, StoredCounter: stored,
		})
		if err != nil {
			return s.deny(c, grantDevice, "assertion_rejected")
		}
	}

	// Store the key or its counter, then issue (step 6).
	s.mu.Lock()
	defer s.mu.Unlock()
	in, key, err = s.deviceTargetLocked(c, req)
	if err != nil {
		return err
	}
	if req.attesting {
		in.keys[req.keyID] = &attestedKey{publicKey: publicKey}
	} else {
		if counter <= key.counter {
			return s.deny(c, grantDevice, "counter_not_increasing")
		}
		key.counter = counter
	}
	secret := s.issueTokenLocked(&accessToken{
		scope:         ScopeWorkspaceMessages,
		workspaceID:   in.cfg.WorkspaceID,
		expiresAt:     s.cfg.clock.Now().Add(deviceTokenLifetime * time.Second),
		integrationID: in.id,
		deviceKeyID:   req.keyID,
	})
	return sendToken(c, secret, deviceTokenLifetime, ScopeWorkspaceMessages, in.cfg.WorkspaceID)
}

// spendChallengeLocked is step 2: a challenge named by a request that got
// this far is spent, whatever happens next (docs/auth-wire.md 4.2).
func (s *Service) spendChallengeLocked(req deviceRequest) error {
	ch, ok := s.devices.challenges[secretDigest(req.challenge)]
	if !ok {
		return kit.InvalidField("challenge", msgChallengeUnusable)
	}
	usable := !ch.spent && ch.clientID == req.clientID && s.cfg.clock.Now().Before(ch.expiresAt)
	ch.spent = true
	if !usable {
		return kit.InvalidField("challenge", msgChallengeUnusable)
	}
	return nil
}

// deviceTargetLocked is steps 3–5 before the proof: the integration and
// app id, the workspace, and the key's state. It returns the stored key for
// an assertion (nil for an attestation).
func (s *Service) deviceTargetLocked(c *kit.Call, req deviceRequest) (*appIntegration, *attestedKey, error) {
	in, ok := s.devices.integrations[req.clientID]
	switch {
	case !ok:
		return nil, nil, s.deny(c, grantDevice, "client_unknown")
	case in.revoked:
		return nil, nil, s.deny(c, grantDevice, "client_revoked")
	case !slices.ContainsFunc(in.cfg.BundleIDs, func(b string) bool { return in.cfg.TeamID+"."+b == req.appID }):
		return nil, nil, s.deny(c, grantDevice, "app_id_not_registered")
	}
	ws := s.workspaces[in.cfg.WorkspaceID]
	switch {
	case ws == nil || ws.archived():
		return nil, nil, s.deny(c, grantDevice, "workspace_archived")
	case req.workspaceID != "" && s.resolveWorkspaceLocked(req.workspaceID) != ws.id:
		return nil, nil, s.deny(c, grantDevice, "workspace_mismatch")
	}
	key := in.keys[req.keyID]
	switch {
	case req.attesting && key != nil:
		return nil, nil, kit.InvalidField("key_id", "already attested; send an assertion")
	case !req.attesting && key == nil:
		return nil, nil, kit.InvalidField("key_id", "not attested; send an attestation")
	}
	return in, key, nil
}
