package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Paths of the exchange endpoints (docs/auth-wire.md, sections 2 and 4).
const (
	tokenPath     = "/v1/oauth/token"
	challengePath = "/v1/oauth/device_attestation/challenge"

	apiVersion = "2023-06-01" // vendor-version, as the client sends it
	userAgent  = "agentplatform-go/auth"

	defaultRetries      = 3
	defaultMaxRetryWait = 8 * time.Second
	initialRetryWait    = 250 * time.Millisecond
	maxResponseBody     = 1 << 20
	defaultHTTPTimeout  = 30 * time.Second
)

// exchanger sends the exchange requests: its own small HTTP client, not the
// client's pipeline (which depends on this package).
type exchanger struct {
	base    string // scheme://host[/prefix]
	hc      *http.Client
	owned   *http.Transport // closed on Close when we made it
	retries int
	maxWait time.Duration
	now     func() time.Time

	// The base URL's parts, for the redirect check and the span attributes.
	origin   string // originKey of base
	scheme   string
	host     string
	port     int
	basePath string // escaped, without a trailing slash
}

// newExchanger builds the exchanger of base, which endpointBase checked.
func newExchanger(base string, hc *http.Client, retries int, maxWait time.Duration, now func() time.Time) *exchanger {
	u, _ := url.Parse(base)
	x := &exchanger{base: base, retries: retries, maxWait: maxWait, now: orNow(now),
		origin: originKey(u), scheme: u.Scheme, host: u.Hostname(), port: defaultPort(u), basePath: u.EscapedPath()}
	x.hc, x.owned = exchangeClient(hc, x.origin)
	switch {
	case retries == 0:
		x.retries = defaultRetries
	case retries < 0:
		x.retries = 0
	}
	if x.maxWait <= 0 {
		x.maxWait = defaultMaxRetryWait
	}
	return x
}

// defaultPort is u's port, else the scheme's.
func defaultPort(u *url.URL) int {
	if p, err := strconv.Atoi(u.Port()); err == nil {
		return p
	}
	if u.Scheme == "http" {
		return 80
	}
	return 443
}

func (x *exchanger) close() {
	if x.owned != nil {
		x.owned.CloseIdleConnections()
	}
}

// withRetries runs op until it succeeds, fails for good, or the retries run
// out. op is called afresh for every attempt, so that it can read a new
// identity token or fetch a new challenge each time.
func (x *exchanger) withRetries(ctx context.Context, op func(context.Context) error) error {
	for attempt := 0; ; attempt++ {
		err := op(ctx)
		var xe *ExchangeError
		if err == nil || !errors.As(err, &xe) || !xe.Temporary() || attempt >= x.retries {
			return err
		}
		t := time.NewTimer(x.wait(attempt, xe))
		select {
		case <-ctx.Done():
			t.Stop()
			return &ExchangeError{Endpoint: xe.Endpoint, Message: "gave up waiting to retry after: " + xe.Error(), Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// wait is the pause before retry number attempt+1: the server's
// retry-after or retry-after-ms when it gave one, else exponential backoff
// with jitter. It is always within [0, maxWait].
func (x *exchanger) wait(attempt int, xe *ExchangeError) time.Duration {
	d := xe.retryAfter
	if d <= 0 {
		d = initialRetryWait << min(max(attempt, 0), 10)
		d = d/2 + rand.N(d/2+1)
	}
	return max(0, min(d, x.maxWait))
}

// checker is a decoded 200 body that can tell whether it is usable. post
// asks it, so that a malformed answer fails the request (and its span),
// not only the exchange.
type checker interface {
	problem() string // "" when the body is usable
}

// post sends body as JSON to path and decodes a 200 answer into out. It
// returns the source's time just before the request was sent. secrets are
// scrubbed from any message the server sends back. Every request gets a
// CLIENT span when the exchange is traced (trace.go).
func (x *exchanger) post(ctx context.Context, path string, body any, out checker, secrets ...string) (time.Time, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return time.Time{}, localError("encoding the request", err)
	}
	tr := exchangeTraceFrom(ctx).request(ctx, x, path)
	ctx = tr.context(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.base+path, bytes.NewReader(raw))
	if err != nil {
		err = localError("building the request", err)
		tr.done(0, nil, err)
		return time.Time{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("vendor-version", apiVersion)
	req.Header.Set("User-Agent", userAgent)
	tr.inject(ctx, req.Header)
	sent := x.now()
	status, header, err := x.send(ctx, req, path, out, secrets)
	tr.done(status, header, err)
	return sent, err
}

// send runs one request and returns the status and header of the response
// it got, if any, and the request's error.
func (x *exchanger) send(ctx context.Context, req *http.Request, path string, out checker, secrets []string) (int, http.Header, error) {
	resp, err := x.hc.Do(req)
	if err != nil {
		if resp != nil { // only when the redirect policy refused
			return resp.StatusCode, resp.Header, refusedRedirect(path, resp, err)
		}
		return 0, nil, &ExchangeError{Endpoint: path, Message: "no response", Err: transportCause(ctx, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return resp.StatusCode, resp.Header, &ExchangeError{Endpoint: path, Message: "reading the response", Err: transportCause(ctx, err)}
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, resp.Header, responseError(path, resp, data, secrets)
	}
	var msg string
	if err := json.Unmarshal(data, out); err != nil {
		msg = "malformed response body" // the decoder's message is not kept: it may quote the body
	} else {
		msg = out.problem()
	}
	if msg != "" {
		return resp.StatusCode, resp.Header, &ExchangeError{Endpoint: path, StatusCode: resp.StatusCode, Type: apierror.TypeAPI,
			Message: msg, RequestID: resp.Header.Get("request-id")}
	}
	return resp.StatusCode, resp.Header, nil
}

// transportCause keeps the caller's context error recognisable.
func transportCause(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return errors.Join(ctxErr, err)
	}
	return err
}

// tokenResponse is the 200 body of both grants (docs/auth-wire.md, 2.7
// and 4.5).
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
}

func (r *tokenResponse) problem() string {
	if r.AccessToken == "" || !strings.EqualFold(r.TokenType, "Bearer") || r.ExpiresIn <= 0 {
		return "the token response lacks a Bearer access_token or a positive expires_in"
	}
	return ""
}

// token schedules the checked token from sent.
func (r *tokenResponse) token(sent time.Time) *token {
	return newToken(r.AccessToken, sent, time.Duration(r.ExpiresIn)*time.Second)
}

// setBearer puts an access token on the request: Bearer only, no API key
// header (docs/auth-wire.md 1.1). The token fixes the workspace, so a
// vendor-workspace-id of "default" (from VENDOR_WORKSPACE_ID, which
// federation sends in the exchange body instead) is dropped: "default" is
// not a valid value of that header. Any other id is left for the API to
// check against the token's workspace.
func setBearer(req *http.Request, tok string) {
	req.Header["Authorization"] = []string{"Bearer " + tok}
	req.Header.Del("X-Api-Key")
	if req.Header.Get("vendor-workspace-id") == "default" {
		req.Header.Del("vendor-workspace-id")
	}
}

// bearerToken is the token a request carried, for Invalidate.
func bearerToken(req *http.Request) string {
	if req == nil {
		return ""
	}
	scheme, tok, ok := strings.Cut(req.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}
