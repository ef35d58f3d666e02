package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
)

const grantJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// FederationConfig configures workload identity federation
// (docs/auth-wire.md 2). It holds no secret: the identity token is read
// through IdentityToken when an exchange needs it.
type FederationConfig struct {
	// BaseURL is where POST /v1/oauth/token is sent. Empty means
	// VENDOR_BASE_URL, else https://api.vendor.com: the same default as the
	// client's, so set it whenever the client gets option.WithBaseURL. It
	// must be https, or http to a loopback host.
	BaseURL string

	FederationRuleID string // fdrl_…; required
	OrganizationID   string // org_…; required
	ServiceAccountID string // svcacct_…; required
	// WorkspaceID is the workspace the token is bound to: a wrkspc_… id or
	// "default". Empty leaves it to the rule, which must then be enabled for
	// exactly one workspace.
	WorkspaceID string

	// IdentityToken returns the JWT to exchange; required. See
	// IdentityTokenFile, IdentityTokenEnv, or write your own.
	IdentityToken IdentityTokenSource

	// HTTPClient sends the exchanges. Default: a private transport, released
	// by Close, and a 30-second timeout. A copy of it is used, whose redirect
	// policy refuses to leave the token endpoint's origin: the request body
	// holds the identity token.
	HTTPClient *http.Client
	// Now tells the time that expiry and the refresh schedule go by, so
	// that a test can drive them (pass the method value of the reference
	// server's clock, clock.Now). Default: time.Now.
	Now func() time.Time
	// Logger gets one debug line per exchange (outcome, expiry, duration;
	// never a token). Default: no logging.
	Logger *slog.Logger
	// MaxRetries is how many times an exchange is retried after a connection
	// error, 429 or 5xx (never after 400 or 401). 0 means 3; negative means
	// no retries.
	MaxRetries int
	// MaxRetryWait caps the wait before a retry, including the server's
	// retry-after. 0 means 8 seconds.
	MaxRetryWait time.Duration
	// ExchangeTimeout bounds one exchange, retries included. 0 means 1 minute.
	ExchangeTimeout time.Duration
	// TracerProvider records a CLIENT span for the requests of each
	// exchange (vendor.oauth.token.create), a child of the span of the
	// request that needed the token. Default: that span's provider, which
	// is the client's when the client traces, else the global provider.
	TracerProvider trace.TracerProvider
}

// FederationCredentials exchanges the workload's identity token for
// short-lived access tokens at POST /v1/oauth/token and sends them as
// "Authorization: Bearer <token>". Tokens are cached and refreshed before
// they expire (see the package documentation for the schedule); a token the
// API refuses with 401 is dropped and exchanged again once.
//
// Close it when done: it cancels a background refresh in progress and
// releases connections. It is safe for concurrent use, and prints as
// redacted with every fmt verb and in slog.
type FederationCredentials struct{ f *federation }

type federation struct {
	ruleID      string
	orgID       string
	svcID       string
	workspaceID string
	identity    IdentityTokenSource
	x           *exchanger
	cache       *tokenCache
}

// Federation returns credentials for workload identity federation. It
// checks the configuration and sends nothing; the first request exchanges.
// A token endpoint that is neither https nor loopback is refused
// (ErrInsecureEndpoint).
func Federation(cfg FederationConfig) (*FederationCredentials, error) {
	for _, v := range [...]struct{ field, value string }{
		{"federation_rule_id", cfg.FederationRuleID},
		{"organization_id", cfg.OrganizationID},
		{"service_account_id", cfg.ServiceAccountID},
	} {
		if strings.TrimSpace(v.value) == "" {
			return nil, &apierror.ValidationError{Field: v.field, Rule: "is required"}
		}
	}
	if cfg.IdentityToken == nil {
		return nil, &apierror.ValidationError{Field: "identity_token", Rule: "is required: use auth.IdentityTokenFile, auth.IdentityTokenEnv or your own source"}
	}
	base, err := endpointBase(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	f := &federation{
		ruleID:      cfg.FederationRuleID,
		orgID:       cfg.OrganizationID,
		svcID:       cfg.ServiceAccountID,
		workspaceID: cfg.WorkspaceID,
		identity:    cfg.IdentityToken,
		x:           newExchanger(base, cfg.HTTPClient, cfg.MaxRetries, cfg.MaxRetryWait, cfg.Now),
	}
	f.cache = newTokenCache("federation", cfg.Now, cfg.ExchangeTimeout, cfg.Logger, cfg.TracerProvider, f.exchange)
	return &FederationCredentials{f: f}, nil
}

// federationRequest is the jwt-bearer grant's body (docs/auth-wire.md 2.1).
type federationRequest struct {
	GrantType        string `json:"grant_type"`
	Assertion        string `json:"assertion"`
	FederationRuleID string `json:"federation_rule_id"`
	OrganizationID   string `json:"organization_id"`
	ServiceAccountID string `json:"service_account_id"`
	WorkspaceID      string `json:"workspace_id,omitzero"`
}

// exchange runs one exchange with its retries, reading the identity token
// afresh for every attempt.
func (f *federation) exchange(ctx context.Context) (*token, error) {
	var tok *token
	err := f.x.withRetries(ctx, func(ctx context.Context) error {
		jwt, err := f.identity(ctx)
		if err != nil {
			return localError("reading the identity token", err)
		}
		jwt = strings.TrimSpace(jwt)
		if jwt == "" {
			return localError("the identity token is empty", nil)
		}
		body := federationRequest{
			GrantType:        grantJWTBearer,
			Assertion:        jwt,
			FederationRuleID: f.ruleID,
			OrganizationID:   f.orgID,
			ServiceAccountID: f.svcID,
			WorkspaceID:      f.workspaceID,
		}
		var resp tokenResponse
		sent, err := f.x.post(ctx, tokenPath, &body, &resp, jwt)
		if err != nil {
			return err
		}
		tok = resp.token(sent)
		return nil
	})
	return tok, err
}

// Authorize sets "Authorization: Bearer <access token>", exchanging first
// when no usable token is cached. An exchange that fails when a token is
// needed fails the request with an *ExchangeError. A vendor-workspace-id
// header of "default" is removed, since the token fixes the workspace.
func (c FederationCredentials) Authorize(ctx context.Context, req *http.Request) error {
	if c.f == nil {
		return errUninitialized
	}
	tok, err := c.f.cache.get(ctx)
	if err != nil {
		return err
	}
	setBearer(req, tok)
	return nil
}

// Invalidate drops the token req carried, after the API refused it.
func (c FederationCredentials) Invalidate(req *http.Request) {
	if c.f != nil {
		c.f.cache.invalidate(bearerToken(req))
	}
}

// Close cancels a background refresh in progress, waits for it, and
// releases the source's connections. Later requests fail with ErrClosed.
func (c FederationCredentials) Close() error {
	if c.f != nil {
		c.f.cache.close()
		c.f.x.close()
	}
	return nil
}

// String names the source and its federation rule, never a token.
func (c FederationCredentials) String() string {
	if c.f == nil {
		return "auth.Federation(" + redacted + ")"
	}
	return "auth.Federation(" + c.f.ruleID + ", " + redacted + ")"
}

// GoString returns String, so %#v prints nothing more.
func (c FederationCredentials) GoString() string { return c.String() }

// Format prints String for every verb: nothing more.
func (c FederationCredentials) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(c.String())) }

// LogValue logs String: nothing more.
func (c FederationCredentials) LogValue() slog.Value { return slog.StringValue(c.String()) }
