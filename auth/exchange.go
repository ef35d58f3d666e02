package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Paths of the exchange endpoints (docs/auth-wire.md 2, 4).
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
	clock   Clock
}

func newExchanger(base string, hc *http.Client, retries int, maxWait time.Duration, clock Clock) *exchanger {
	x := &exchanger{base: base, hc: hc, retries: retries, maxWait: maxWait, clock: clock}
	if x.hc == nil {
		// A private transport, so that Close releases its connections
		// without touching one the process shares. The exchange is not a
		// stream, so a client timeout is safe here.
		x.owned = http.DefaultTransport.(*http.Transport).Clone()
		x.hc = &http.Client{Transport: x.owned, Timeout: defaultHTTPTimeout}
	}
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
// with jitter, both capped by maxWait.
func (x *exchanger) wait(attempt int, xe *ExchangeError) time.Duration {
	d := xe.retryAfter
	if d <= 0 {
		d = initialRetryWait << min(attempt, 10)
		d = d/2 + rand.N(d/2+1)
	}
	return min(d, x.maxWait)
}

// post sends body as JSON to path and decodes a 200 answer into out. It
// returns the source's time just before the request was sent. secrets are
// scrubbed from any message the server sends back.
func (x *exchanger) post(ctx context.Context, path string, body, out any, secrets ...string) (time.Time, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return time.Time{}, localError("encoding the request", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.base+path, bytes.NewReader(raw))
	if err != nil {
		return time.Time{}, localError("building the request", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("vendor-version", apiVersion)
	req.Header.Set("User-Agent", userAgent)
	sent := x.clock.Now()
	resp, err := x.hc.Do(req)
	if err != nil {
		return sent, &ExchangeError{Endpoint: path, Message: "no response", Err: transportCause(ctx, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return sent, &ExchangeError{Endpoint: path, Message: "reading the response", Err: transportCause(ctx, err)}
	}
	if resp.StatusCode != http.StatusOK {
		return sent, responseError(path, resp, data, secrets)
	}
	if err := json.Unmarshal(data, out); err != nil {
		// The decoder's message is not kept: it may quote the body.
		return sent, &ExchangeError{Endpoint: path, StatusCode: resp.StatusCode, Type: apierror.TypeAPI,
			Message: "malformed response body", RequestID: resp.Header.Get("request-id")}
	}
	return sent, nil
}

// transportCause keeps the caller's context error recognisable.
func transportCause(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return errors.Join(ctxErr, err)
	}
	return err
}

// tokenResponse is the 200 body of both grants (contract 2.7, 4.5).
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
}

// token checks the response and schedules the token from sent.
func (r *tokenResponse) token(sent time.Time) (*token, error) {
	if r.AccessToken == "" || !strings.EqualFold(r.TokenType, "Bearer") || r.ExpiresIn <= 0 {
		return nil, &ExchangeError{Endpoint: tokenPath, StatusCode: http.StatusOK, Type: apierror.TypeAPI,
			Message: "the token response lacks a Bearer access_token or a positive expires_in"}
	}
	return newToken(r.AccessToken, sent, time.Duration(r.ExpiresIn)*time.Second), nil
}

// setBearer puts an access token on the request as contract 1.1 asks:
// Bearer only, no API key header. The token fixes the workspace, so a
// vendor-workspace-id of "default" (from VENDOR_WORKSPACE_ID, which
// federation sends in the exchange body instead) is dropped: it is not a
// valid header value (SPEC 5.2 rule 5). Any other id is left for the API to
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
