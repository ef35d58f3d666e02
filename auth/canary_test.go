package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
)

// The canary tests run each credential source through its happy and
// unhappy paths with a debug logger, a span recorder and content capture
// on, then look for every secret the run handled (API keys, identity JWTs,
// access tokens, device proofs) in everything the SDK emits besides the
// wire: error strings and their %v, %+v and %#v, the printed credentials
// and configs, the log and the spans.

// canary collects what the SDK emitted during a test.
type canary struct {
	t      *testing.T
	log    syncBuffer
	logger *slog.Logger
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider

	texts []string // error strings and printed values
	errs  int
}

func newCanary(t *testing.T) *canary {
	c := &canary{t: t, spans: tracetest.NewSpanRecorder()}
	c.logger = slog.New(slog.NewJSONHandler(&c.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(c.spans))
	t.Cleanup(func() { _ = c.tp.Shutdown(ctx) })
	return c
}

// options make a client log at debug level, record spans and capture
// content (the mode that records the most).
func (c *canary) options() []option.Option {
	return []option.Option{option.WithLogger(c.logger), option.WithTracerProvider(c.tp), option.WithContentCapture(true)}
}

// err keeps an error's text in every form a program may print it, and
// returns it. It does not check that err is non-nil: callers do.
func (c *canary) err(err error) error {
	if err == nil {
		return nil
	}
	c.errs++
	c.texts = append(c.texts, err.Error(), fmt.Sprintf("%v %+v %#v", err, err, err))
	c.logger.Error("call failed", "error", err)
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		c.texts = append(c.texts, string(apiErr.Body)) // %#v shows it as bytes
	}
	var xe *auth.ExchangeError
	if errors.As(err, &xe) {
		c.texts = append(c.texts, fmt.Sprintf("%+v %#v", *xe, *xe))
	}
	return err
}

// print keeps how values print with every common verb and in slog.
func (c *canary) print(values ...any) {
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			c.texts = append(c.texts, fmt.Sprintf(verb, v))
		}
		c.logger.Debug("value", "value", v)
		c.logger.Debug("group", slog.Group("g", "value", v))
	}
}

// check fails the test if any secret appears anywhere the SDK emitted.
func (c *canary) check(secrets []string) {
	c.t.Helper()
	require.NotEmpty(c.t, secrets)
	require.NotZero(c.t, c.errs, "the run went through failure paths")
	require.NotZero(c.t, c.log.Len(), "the run logged")
	require.NotEmpty(c.t, c.spans.Ended(), "the run recorded spans")
	var spans strings.Builder
	for _, s := range c.spans.Ended() {
		fmt.Fprintln(&spans, s.Name(), s.Status(), s.Attributes())
		for _, ev := range s.Events() {
			fmt.Fprintln(&spans, ev.Name, ev.Attributes)
		}
	}
	sources := map[string]string{"log": c.log.String(), "spans": spans.String()}
	for i, text := range c.texts {
		sources[fmt.Sprintf("text %d", i)] = text
	}
	for _, secret := range secrets {
		require.NotEmpty(c.t, secret)
		for where, text := range sources {
			if strings.Contains(text, secret) {
				c.t.Fatalf("a secret (%.12s…) leaked into the %s: %s", secret, where, text)
			}
		}
	}
}

// requireExchangeSpans checks that the exchanges were traced, successes and
// failures, so that check covers their spans: the client's provider
// records them, since the configs name none.
func (c *canary) requireExchangeSpans(names ...string) {
	c.t.Helper()
	for _, name := range names {
		var ok, failed bool
		for _, s := range c.spans.Ended() {
			if s.Name() == name {
				ok = ok || s.Status().Code == codes.Ok
				failed = failed || s.Status().Code == codes.Error
			}
		}
		require.True(c.t, ok && failed, "%s spans, successful and failed", name)
	}
}

// syncBuffer is a bytes.Buffer for a logger written from many goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// echoTransport stands for a hostile or broken token endpoint: in a mode
// other than "", it answers an exchange by quoting the request body, which
// holds the identity token or the device proof.
type echoTransport struct {
	mu   sync.Mutex
	mode string // "html500", "json400", "json200" (a malformed 200), or "": pass through
}

func (e *echoTransport) set(mode string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mode = mode
}

func (e *echoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	e.mu.Lock()
	mode := e.mode
	e.mu.Unlock()
	if mode == "" {
		return http.DefaultTransport.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	quoted, _ := json.Marshal("you sent " + string(body))
	resp := &http.Response{Header: http.Header{"Content-Type": {"application/json"}}, Request: r}
	switch mode {
	case "html500":
		resp.StatusCode = 500
		resp.Header.Set("Content-Type", "text/html")
		body = []byte("<html><body><pre>" + string(body) + "</pre></body></html>")
	case "json400":
		resp.StatusCode = 400
		body = []byte(`{"type":"error","error":{"type":"invalid_request_error","message":` + string(quoted) + `}}`)
	case "json200":
		resp.StatusCode = 200
		body = []byte(`{"access_token":42,"echo":` + string(quoted) + `}`)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// echoModes are the echoTransport's failure modes.
var echoModes = []string{"html500", "json400", "json200"}

func TestCanaryAPIKey(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	cn := newCanary(t)
	const badKey = "sk-vendor-api03-CANARYrejectedKey0000000000000000000000000001"

	good := env.Client(t, cn.options()...)
	require.NoError(t, listModels(good))
	_, err := good.Models.Get(ctx, "no-such-model")
	require.Error(t, cn.err(err))
	env.Server.InjectFault(refserver.Fault{Path: "/v1/models", Status: 502, Body: "<html>bad gateway</html>", Times: 3})
	require.Error(t, cn.err(listModels(good)))

	for _, creds := range []auth.Credentials{auth.APIKey(badKey), auth.XAPIKey(badKey)} {
		bad := client(t, env.URL, creds, cn.options()...)
		require.ErrorIs(t, cn.err(listModels(bad)), apierror.ErrAuthentication)
		cn.print(creds)
	}
	bad, err := agentplatform.NewClient(append(cn.options(), option.WithBaseURL(env.URL), option.WithAPIKey(badKey))...)
	require.NoError(t, err)
	defer bad.Close()
	require.ErrorIs(t, cn.err(listModels(bad)), apierror.ErrAuthentication)
	cn.print(good, bad, auth.APIKey(env.Seed.APIKey), auth.XAPIKey(env.Seed.APIKey))

	cn.check([]string{env.Seed.APIKey, badKey})
}

func TestCanaryFederation(t *testing.T) {
	e := newFedEnv(t)
	cn := newCanary(t)
	echo := &echoTransport{}
	sdkClock := refserver.NewManualClock(t0)
	cfg := e.config(t)
	cfg.Now = sdkClock.Now
	cfg.Logger = cn.logger
	cfg.HTTPClient = &http.Client{Transport: echo}
	cfg.MaxRetries = 1
	creds := federation(t, cfg)
	var rec bearerRecorder
	c := client(t, e.URL, creds, append(cn.options(), rec.middleware())...)
	cn.print(creds, cfg)

	// Success, then a token the server has expired: 401, re-exchange, retry.
	require.NoError(t, listModels(c))
	e.clock.Advance(time.Hour)
	require.NoError(t, listModels(c))
	require.Equal(t, 2, e.Count("POST", tokenPath))

	// A token endpoint that quotes the request back. Each call comes after
	// the token's expiry, so it waits for the exchange and fails with it.
	for _, mode := range echoModes {
		sdkClock.Advance(time.Hour)
		echo.set(mode)
		var xe *auth.ExchangeError
		require.ErrorAs(t, cn.err(listModels(c)), &xe, mode)
	}
	echo.set("")

	// withJWT is a new source that always presents jwt.
	withJWT := func(jwt string, edit ...func(*auth.FederationConfig)) error {
		fixed := cfg
		fixed.IdentityToken = func(context.Context) (string, error) { return jwt, nil }
		for _, f := range edit {
			f(&fixed)
		}
		creds := federation(t, fixed)
		cn.print(creds, fixed)
		return cn.err(listModels(client(t, e.URL, creds, cn.options()...)))
	}

	// The server's failures, some quoting the JWT it was sent.
	for _, f := range []refserver.Fault{
		{Status: 500, Body: "<html>upstream said: %s</html>", Times: 2},
		{Status: 400, Message: "assertion: cannot parse %s"},
		{Status: 503, Header: http.Header{"X-Should-Retry": {"false"}}},
		{Drop: true, Times: 2},
	} {
		jwt := e.mint(t)
		f.Path = tokenPath
		f.Body, f.Message = strings.ReplaceAll(f.Body, "%s", jwt), strings.ReplaceAll(f.Message, "%s", jwt)
		e.Server.InjectFault(f)
		require.Error(t, withJWT(jwt))
	}

	// Identity tokens the server refuses.
	for _, bad := range []string{
		e.sign(t, newFedEnv(t).key, e.claims()), // another key
		e.mint(t, func(c map[string]any) { c["iss"] = "https://evil.example.com" }),
		e.mint(t, func(c map[string]any) { c["aud"] = "https://api.other.com" }),
		e.mint(t, func(c map[string]any) { c["exp"] = e.clock.Now().Add(-time.Minute).Unix() }),
		e.unsigned(),
		"CANARYnotAJWT0000000000000000000002",
	} {
		e.remember(bad)
		require.ErrorIs(t, withJWT(bad), apierror.ErrAuthentication)
	}

	// A timeout, waiting for a token endpoint that does not answer.
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Delay: time.Hour})
	err := withJWT(e.mint(t), func(c *auth.FederationConfig) { c.ExchangeTimeout = 20 * time.Millisecond })
	require.ErrorIs(t, err, context.DeadlineExceeded)
	e.Server.ClearFaults() // on a slow machine the timeout can come before the request reached the server

	// Closed.
	require.NoError(t, creds.Close())
	require.ErrorIs(t, cn.err(listModels(c)), auth.ErrClosed)

	secrets := e.secrets()
	tokens := rec.distinct()
	require.Len(t, tokens, 2)
	for _, tok := range tokens {
		secrets = append(secrets, strings.TrimPrefix(tok, "Bearer "))
	}
	cn.requireExchangeSpans("vendor.oauth.token.create")
	cn.check(secrets)
}

// secrets returns every identity token the test handed out, and the
// signature of each signed one on its own.
func (e *fedEnv) secrets() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, jwt := range e.minted {
		out = append(out, jwt)
		if parts := strings.Split(jwt, "."); len(parts) == 3 && parts[2] != "" {
			out = append(out, parts[2])
		}
	}
	return out
}

func TestCanaryDeviceAttestation(t *testing.T) {
	e := newDevEnv(t)
	cn := newCanary(t)
	echo := &echoTransport{}
	sdkClock := refserver.NewManualClock(t0)
	att := newRecordingAttestor(appID)
	cfg := e.config(att, &auth.MemoryKeyStore{})
	cfg.Now = sdkClock.Now
	cfg.Logger = cn.logger
	cfg.HTTPClient = &http.Client{Transport: echo}
	cfg.MaxRetries = 1
	creds := deviceAttestation(t, cfg)
	var rec bearerRecorder
	c := client(t, e.URL, creds, append(cn.options(), rec.middleware())...)
	cn.print(creds, cfg, att)

	// Attest, then a token the server has expired: 401, assert, retry.
	require.NoError(t, sayHello(c))
	e.clock.Advance(time.Hour)
	require.NoError(t, sayHello(c))

	// Refused locally.
	var se *auth.ScopeError
	require.ErrorAs(t, cn.err(listModels(c)), &se)

	// A token endpoint that quotes the proof back.
	for _, mode := range echoModes {
		sdkClock.Advance(time.Hour)
		echo.set(mode)
		var xe *auth.ExchangeError
		require.ErrorAs(t, cn.err(sayHello(c)), &xe, mode)
	}
	echo.set("")

	// The server's failures.
	for _, f := range []refserver.Fault{
		{Path: tokenPath, Status: 500, Body: "<html>oops</html>", Times: 2},
		{Path: challengePath, Status: 502, Body: "<html>bad gateway</html>", Times: 2},
		{Path: tokenPath, Drop: true, Times: 2},
		{Path: challengePath, Status: 401, Message: "Authentication failed"},
	} {
		sdkClock.Advance(time.Hour)
		e.Server.InjectFault(f)
		require.Error(t, cn.err(sayHello(c)))
	}

	// A tampered build, whose proof the server rejects.
	tampered := e.config(newRecordingAttestor(teamID+".com.example.evil"), nil)
	tampered.Logger = cn.logger
	tc := client(t, e.URL, deviceAttestation(t, tampered), cn.options()...)
	require.ErrorIs(t, cn.err(sayHello(tc)), apierror.ErrAuthentication)
	tamperedProofs := tampered.Attestor.(*recordingAttestor).Proofs()

	// A timeout.
	slow := cfg
	slow.ExchangeTimeout = 20 * time.Millisecond
	e.Server.InjectFault(refserver.Fault{Path: challengePath, Delay: time.Hour})
	require.ErrorIs(t, cn.err(sayHello(client(t, e.URL, deviceAttestation(t, slow), cn.options()...))), context.DeadlineExceeded)
	e.Server.ClearFaults() // on a slow machine the timeout can come before the request reached the server

	// Revoked, then closed.
	require.NoError(t, e.Server.RevokeAppIntegration(e.clientID))
	require.Error(t, cn.err(sayHello(c)))
	require.NoError(t, creds.Close())
	require.ErrorIs(t, cn.err(sayHello(c)), auth.ErrClosed)

	secrets := append(att.Proofs(), tamperedProofs...)
	require.GreaterOrEqual(t, len(att.Proofs()), 5, "an attestation and assertions")
	tokens := rec.distinct()
	require.Len(t, tokens, 2)
	for _, tok := range tokens {
		secrets = append(secrets, strings.TrimPrefix(tok, "Bearer "))
	}
	cn.requireExchangeSpans("vendor.oauth.token.create", "vendor.oauth.device_attestation.challenge.create")
	cn.check(secrets)
}
