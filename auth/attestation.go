package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
)

const grantDeviceAttestation = "urn:vendor:params:oauth:grant-type:device-attestation"

// DeviceAttestationConfig configures device attestation
// (docs/auth-wire.md 4) for an iOS or macOS app calling the API directly.
type DeviceAttestationConfig struct {
	// BaseURL is where the challenge and token endpoints are. Empty means
	// VENDOR_BASE_URL, else https://api.vendor.com: the client's default,
	// so set it whenever the client gets option.WithBaseURL (the scope
	// check also reads request paths below it). It must be https, or http
	// to a loopback host.
	BaseURL string

	ClientID string // the app integration's client id, clid_…; required
	// AppID is Apple's App ID, "<TEAMID>.<bundle id>"; required.
	AppID string
	// WorkspaceID, when set, asserts which workspace usage is billed to
	// (wrkspc_… or "default"); it must be the integration's.
	WorkspaceID string

	Attestor Attestor // required
	// KeyStore remembers the attested key. Default: a MemoryKeyStore.
	KeyStore KeyStore

	// HTTPClient, Now, Logger, MaxRetries, MaxRetryWait, ExchangeTimeout
	// and TracerProvider are as in FederationConfig. A retried exchange
	// starts again from a new challenge. The spans are
	// vendor.oauth.device_attestation.challenge.create and
	// vendor.oauth.token.create.
	HTTPClient      *http.Client
	Now             func() time.Time
	Logger          *slog.Logger
	MaxRetries      int
	MaxRetryWait    time.Duration
	ExchangeTimeout time.Duration
	TracerProvider  trace.TracerProvider
}

// DeviceAttestationCredentials gets access tokens for an attested app
// installation and sends them as "Authorization: Bearer <token>". A token
// lasts an hour, is bound to the integration's workspace, and authorizes
// only the Messages API: Authorize refuses every other request with a
// *ScopeError before anything is sent, an exchange included.
//
// Flow of one exchange: POST /v1/oauth/device_attestation/challenge, then
// POST /v1/oauth/token with an attestation of a new key the first time, an
// assertion with the attested key afterwards. If the server no longer knows
// the key, the source attests a new one, once.
//
// Tokens are cached and refreshed like federation tokens. Close it when
// done. It is safe for concurrent use and prints as redacted.
type DeviceAttestationCredentials struct{ d *device }

type device struct {
	clientID    string
	appID       string
	workspaceID string
	basePath    string // the endpoint's path prefix, for the scope check
	attestor    Attestor
	keys        KeyStore
	x           *exchanger
	cache       *tokenCache
	logger      *slog.Logger
}

// DeviceAttestation returns credentials for device attestation. It checks
// the configuration and sends nothing; the first Messages request
// exchanges.
func DeviceAttestation(cfg DeviceAttestationConfig) (*DeviceAttestationCredentials, error) {
	if strings.TrimSpace(cfg.ClientID) == "" {
		return nil, &apierror.ValidationError{Field: "client_id", Rule: "is required"}
	}
	if strings.TrimSpace(cfg.AppID) == "" {
		return nil, &apierror.ValidationError{Field: "app_id", Rule: "is required"}
	}
	if cfg.Attestor == nil {
		return nil, &apierror.ValidationError{Field: "attestor", Rule: "is required"}
	}
	base, err := endpointBase(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(base) // endpointBase checked it
	keys := cfg.KeyStore
	if keys == nil {
		keys = &MemoryKeyStore{}
	}
	d := &device{
		clientID:    cfg.ClientID,
		appID:       cfg.AppID,
		workspaceID: cfg.WorkspaceID,
		basePath:    u.Path,
		attestor:    cfg.Attestor,
		keys:        keys,
		x:           newExchanger(base, cfg.HTTPClient, cfg.MaxRetries, cfg.MaxRetryWait, cfg.Now),
		logger:      cfg.Logger,
	}
	d.cache = newTokenCache("device_attestation", cfg.Now, cfg.ExchangeTimeout, cfg.Logger, cfg.TracerProvider, d.exchange)
	return &DeviceAttestationCredentials{d: d}, nil
}

// challengeRequest and challengeResponse are the challenge endpoint's
// bodies (docs/auth-wire.md 4.2).
type challengeRequest struct {
	ClientID string `json:"client_id"`
}

type challengeResponse struct {
	Type      string `json:"type"`
	Challenge string `json:"challenge"`
	ExpiresIn int64  `json:"expires_in"`
}

func (r *challengeResponse) problem() string {
	if r.Challenge == "" {
		return "the challenge response has no challenge"
	}
	return ""
}

// deviceRequest is the device attestation grant's body (docs/auth-wire.md 4.3).
type deviceRequest struct {
	GrantType   string `json:"grant_type"`
	ClientID    string `json:"client_id"`
	AppID       string `json:"app_id"`
	KeyID       string `json:"key_id"`
	Challenge   string `json:"challenge"`
	Attestation string `json:"attestation,omitzero"`
	Assertion   string `json:"assertion,omitzero"`
	WorkspaceID string `json:"workspace_id,omitzero"`
}

// Messages of the 400s the source recovers from by itself
// (docs/auth-wire.md 4.3 and 4.5), once per attempt.
const (
	msgNotAttested  = "key_id: not attested"
	msgBadChallenge = "challenge: unknown, expired or already used"
)

// exchange runs one exchange with its retries; every attempt starts from
// a new challenge.
func (d *device) exchange(ctx context.Context) (*token, error) {
	var tok *token
	err := d.x.withRetries(ctx, func(ctx context.Context) error {
		var err error
		tok, err = d.attempt(ctx)
		return err
	})
	return tok, err
}

// attempt gets a challenge and proves the stored key over it, or attests a
// new key when none is stored. Two refusals are handled once, with a new
// challenge: a key the server does not know (the integration was
// re-created, or the key store outlived the server's records) is replaced
// by a newly attested one, and a challenge that expired in flight is
// replaced.
func (d *device) attempt(ctx context.Context) (*token, error) {
	keyID, err := d.keys.LoadKeyID(ctx)
	if err != nil {
		return nil, localError("loading the attested key id", err)
	}
	for recovered := false; ; recovered = true {
		tok, newKey, err := d.prove(ctx, keyID)
		if err == nil {
			if newKey != "" {
				d.storeKeyID(ctx, newKey)
			}
			return tok, nil
		}
		var xe *ExchangeError
		if recovered || !errors.As(err, &xe) || xe.StatusCode != http.StatusBadRequest {
			return nil, err
		}
		switch {
		case strings.HasPrefix(xe.Message, msgNotAttested):
			keyID = ""
			d.storeKeyID(ctx, "")
		case strings.HasPrefix(xe.Message, msgBadChallenge):
		default:
			return nil, err
		}
	}
}

// storeKeyID records the attested key. A failure does not fail the
// exchange, whose token is good: the next exchange (or launch) attests a
// new key instead of asserting, which costs an attestation and nothing
// else.
func (d *device) storeKeyID(ctx context.Context, keyID string) {
	if err := d.keys.StoreKeyID(ctx, keyID); err != nil && d.logger != nil {
		d.logger.LogAttrs(ctx, slog.LevelWarn, "agentplatform: storing the attested key id failed",
			slog.String("error", err.Error()))
	}
}

// prove runs challenge + proof + token request. With keyID "" it creates
// and attests a new key, returned as newKey.
func (d *device) prove(ctx context.Context, keyID string) (tok *token, newKey string, err error) {
	var ch challengeResponse
	if _, err := d.x.post(ctx, challengePath, &challengeRequest{ClientID: d.clientID}, &ch); err != nil {
		return nil, "", err
	}
	hash := sha256.Sum256([]byte(ch.Challenge))
	body := deviceRequest{
		GrantType:   grantDeviceAttestation,
		ClientID:    d.clientID,
		AppID:       d.appID,
		Challenge:   ch.Challenge,
		WorkspaceID: d.workspaceID,
	}
	if keyID == "" {
		if newKey, err = d.attestor.GenerateKey(ctx); err != nil {
			return nil, "", localError("attestor: generating a key", err)
		}
		att, err := d.attestor.AttestKey(ctx, newKey, hash[:])
		if err != nil {
			return nil, newKey, localError("attestor: attesting the key", err)
		}
		body.KeyID, body.Attestation = newKey, base64.StdEncoding.EncodeToString(att)
	} else {
		as, err := d.attestor.GenerateAssertion(ctx, keyID, hash[:])
		if err != nil {
			return nil, "", localError("attestor: generating an assertion", err)
		}
		body.KeyID, body.Assertion = keyID, base64.StdEncoding.EncodeToString(as)
	}
	var resp tokenResponse
	sent, err := d.x.post(ctx, tokenPath, &body, &resp, body.Attestation, body.Assertion)
	if err != nil {
		return nil, newKey, err
	}
	return resp.token(sent), newKey, nil
}

// Authorize refuses anything but a Messages call with a *ScopeError, then
// sets "Authorization: Bearer <access token>", exchanging first when no
// usable token is cached.
func (c DeviceAttestationCredentials) Authorize(ctx context.Context, req *http.Request) error {
	if c.d == nil {
		return errUninitialized
	}
	if !c.d.inScope(req) {
		return &ScopeError{Method: req.Method, Path: req.URL.Path}
	}
	tok, err := c.d.cache.get(ctx)
	if err != nil {
		return err
	}
	setBearer(req, tok)
	return nil
}

// Invalidate drops the token req carried, after the API refused it.
func (c DeviceAttestationCredentials) Invalidate(req *http.Request) {
	if c.d != nil {
		c.d.cache.invalidate(bearerToken(req))
	}
}

// Close cancels a background refresh in progress, waits for it, and
// releases the source's connections. Later requests fail with ErrClosed.
func (c DeviceAttestationCredentials) Close() error {
	if c.d != nil {
		c.d.cache.close()
		c.d.x.close()
	}
	return nil
}

// String names the source and its client id, never a token or a proof.
func (c DeviceAttestationCredentials) String() string {
	if c.d == nil {
		return "auth.DeviceAttestation(" + redacted + ")"
	}
	return "auth.DeviceAttestation(" + c.d.clientID + ", " + redacted + ")"
}

// GoString returns String, so %#v prints nothing more.
func (c DeviceAttestationCredentials) GoString() string { return c.String() }

// Format prints String for every verb: nothing more.
func (c DeviceAttestationCredentials) Format(f fmt.State, verb rune) {
	_, _ = f.Write([]byte(c.String()))
}

// LogValue logs String: nothing more.
func (c DeviceAttestationCredentials) LogValue() slog.Value { return slog.StringValue(c.String()) }
