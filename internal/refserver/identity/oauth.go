package identity

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// The token endpoints (docs/auth-wire.md sections 2 and 4): POST
// /v1/oauth/token, which serves the jwt-bearer grant (federation*.go) and
// the device attestation grant (attestation*.go), and POST
// /v1/oauth/device_attestation/challenge. They take no credential, so they
// skip authentication, workspace selection, the access checks and
// idempotency (docs/auth-wire.md 1.2), and the server emits no span for them (the
// SDK traces them on its side; docs/tracing.md, "Credential exchanges"). Every denial is the same opaque
// 401; the reason is kept for tests (ExchangeDenials) and logged, and no
// secret is ever written anywhere.

const (
	pathOAuthToken       = "/v1/oauth/token"
	pathDeviceChallenge  = "/v1/oauth/device_attestation/challenge"
	grantTypeJWTBearer   = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantTypeDevice      = "urn:vendor:params:oauth:grant-type:device-attestation"
	msgExchangeDenied    = "Authentication failed"
	denialLogSize        = 1000
	headerCacheControl   = "Cache-Control"
	headerPragma         = "Pragma"
	contentTypeJSONError = "must be application/json"
)

func (s *Service) oauthRoutes() []kit.Route {
	routes := []kit.Route{
		{Method: http.MethodPost, Path: pathOAuthToken, Public: true, Handle: s.oauthToken},
		{Method: http.MethodPost, Path: pathDeviceChallenge, Public: true, Handle: s.deviceChallenge},
	}
	for _, p := range []string{pathOAuthToken, pathDeviceChallenge} {
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			routes = append(routes, kit.Route{Method: m, Path: p, Public: true, Handle: messages.MethodNotAllowed})
		}
	}
	return routes
}

// oauthToken is POST /v1/oauth/token: the grant_type picks the grant.
func (s *Service) oauthToken(c *kit.Call) error {
	f, err := readExchangeBody(c)
	if err != nil {
		return err
	}
	grant, _, err := f.str("grant_type", true)
	if err != nil {
		return err
	}
	switch grant {
	case grantTypeJWTBearer:
		return s.federationExchange(c, f)
	case grantTypeDevice:
		return s.deviceExchange(c, f)
	}
	return kit.InvalidField("grant_type", "must be one of %s", kit.QuoteList([]string{grantTypeJWTBearer, grantTypeDevice}))
}

// readExchangeBody runs step 1 of both endpoints (docs/auth-wire.md 2.2): the
// response is never cached, then Content-Type, a JSON object body,
// vendor-version and vendor-beta, in that order.
func readExchangeBody(c *kit.Call) (*jsonFields, error) {
	c.W.Header().Set(headerCacheControl, "no-store")
	c.W.Header().Set(headerPragma, "no-cache")
	if mt, _, err := mime.ParseMediaType(c.R.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, kit.InvalidField("content-type", contentTypeJSONError)
	}
	f, err := readJSONObject(c.Ex.Body)
	if err != nil {
		return nil, err
	}
	version, err := kit.CheckVersion(c.R.Header)
	if err != nil {
		return nil, err
	}
	c.Version = version
	betas, err := kit.ParseBetas(c.R.Header)
	if err != nil {
		return nil, err
	}
	c.Betas = betas
	return f, nil
}

// jsonFields is a JSON object body read key by key, so that the exchange
// bodies, whose fields depend on grant_type, report the first broken rule
// in table order with the project's messages.
type jsonFields struct {
	keys []string // in body order, each once
	vals map[string]json.RawMessage
}

// readJSONObject reads a JSON object; an empty body reads as {} so that
// required fields are reported by name (as decodeStrict does).
func readJSONObject(body []byte) (*jsonFields, error) {
	f := &jsonFields{vals: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(body)) == 0 {
		return f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return nil, describeBodyError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, kit.InvalidField("request body", "must be a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, describeBodyError(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, describeBodyError(err)
		}
		if _, seen := f.vals[key]; !seen {
			f.keys = append(f.keys, key)
		}
		f.vals[key] = raw
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, describeBodyError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, kit.InvalidField("request body", "unexpected data after the JSON value")
	}
	return f, nil
}

// describeBodyError is [kit.DescribeDecodeError] for a body read token
// by token, where a body that stops early ends in io.EOF rather than
// io.ErrUnexpectedEOF: past the opening brace, any end is unexpected.
func describeBodyError(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return kit.DescribeDecodeError(err)
}

// str reads a string field. A missing or null field is absent: an error
// when required ("is required"), otherwise ("", false).
func (f *jsonFields) str(name string, required bool) (string, bool, error) {
	raw, ok := f.vals[name]
	if !ok || string(raw) == "null" {
		if required {
			return "", false, kit.InvalidField(name, "is required")
		}
		return "", false, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false, kit.InvalidField(name, "must be a string")
	}
	return v, true, nil
}

// has reports whether a field is present with a non-null value.
func (f *jsonFields) has(name string) bool {
	raw, ok := f.vals[name]
	return ok && string(raw) != "null"
}

// onlyKnown reports the first key, in body order, that is not allowed.
func (f *jsonFields) onlyKnown(allowed ...string) error {
	known := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		known[a] = true
	}
	for _, k := range f.keys {
		if !known[k] {
			return kit.InvalidField(k, "unknown field")
		}
	}
	return nil
}

// checkWorkspaceField is the workspace_id rule of both grants: a
// well-formed wrkspc_ id or the literal default.
func checkWorkspaceField(f *jsonFields) (string, error) {
	ws, _, err := f.str("workspace_id", false)
	if err != nil {
		return "", err
	}
	if ws != "" && ws != "default" && !validWorkspaceID(ws) {
		return "", kit.InvalidField("workspace_id", "must be a workspace ID (`wrkspc_…`) or `default`")
	}
	return ws, nil
}

// resolveWorkspaceLocked turns the workspace_id of an exchange into an id:
// "" stays "", default becomes the default workspace.
func (s *Service) resolveWorkspaceLocked(ws string) string {
	if ws == "default" {
		return s.seed.DefaultWorkspaceID
	}
	return ws
}

// tokenResponse is the 200 body of both grants (docs/auth-wire.md 2.7, 4.5).
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
}

// sendToken answers a successful exchange. The workspace the token is
// bound to travels in the vendor-workspace-id header.
func sendToken(c *kit.Call, secret string, expiresIn int, scope, workspaceID string) error {
	c.W.Header().Set(kit.HeaderWorkspaceID, workspaceID)
	return c.OK(tokenResponse{AccessToken: secret, TokenType: "Bearer", ExpiresIn: expiresIn, Scope: scope})
}

// ExchangeDenial records why the server refused a token exchange or a
// challenge with the opaque 401 `Authentication failed` (docs/auth-wire.md 2.8). The
// reason never reaches the wire.
type ExchangeDenial struct {
	RequestID string
	// Grant is "jwt-bearer", "device-attestation" or "challenge".
	Grant string
	// Reason names the failed check, e.g. "jwt_signature", "jti_reused",
	// "match_subject_prefix", "workspace_id_required", "counter_not_increasing"
	// (the package documentation lists them all).
	Reason string
	Time   time.Time // server clock
}

// denialLog keeps the most recent denials. It has its own lock: denials
// are recorded with or without Service.mu held.
type denialLog struct {
	mu      sync.Mutex
	entries []ExchangeDenial
}

// ExchangeDenials returns the recorded denials, oldest first (at most the
// last 1000).
func (s *Service) ExchangeDenials() []ExchangeDenial {
	s.denials.mu.Lock()
	defer s.denials.mu.Unlock()
	return append([]ExchangeDenial(nil), s.denials.entries...)
}

// deny records a denial, logs it (request id, grant and reason only) and
// returns the opaque 401.
func (s *Service) deny(c *kit.Call, grant, reason string) error {
	d := ExchangeDenial{RequestID: c.Ex.RequestID, Grant: grant, Reason: reason, Time: s.cfg.clock.Now()}
	l := &s.denials
	l.mu.Lock()
	if len(l.entries) == denialLogSize {
		l.entries = append(l.entries[:0], l.entries[1:]...)
	}
	l.entries = append(l.entries, d)
	l.mu.Unlock()
	s.cfg.logger.LogAttrs(c.R.Context(), slog.LevelInfo, "token exchange denied",
		slog.String("request_id", d.RequestID), slog.String("grant", grant), slog.String("reason", reason))
	return kit.Unauthenticated(msgExchangeDenied)
}
