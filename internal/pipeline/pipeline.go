package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
	"github.com/agentplatform/agentplatform-go/internal/config"
	"github.com/agentplatform/agentplatform-go/option"
)

// Pipeline sends requests for every resource service of one client. It is
// safe for concurrent use; its Config never changes after New.
type Pipeline struct {
	// cfg holds credentials and caller headers. It is behind a pointer so
	// that fmt, printing a client or a service with a verb that does not
	// suit it (%s, %d), shows an address here rather than the secrets:
	// fmt expands a badly formatted pointer one level, then prints
	// pointers below it as addresses.
	cfg    *Config
	retry  *retryablehttp.Client // built for cfg; calls whose options change its HTTP settings build their own
	owned  *http.Transport       // the default transport, when the caller gave no HTTP client
	tracer trace.Tracer          // of cfg.TracerProvider, or of the global provider
	broken error                 // the error of the options the pipeline was made from
}

// New reads the environment (VENDOR_BASE_URL, VENDOR_API_KEY,
// VENDOR_WORKSPACE_ID), then applies opts.
func New(opts []option.Option) (*Pipeline, error) {
	cfg := config.Default()
	if v := os.Getenv(config.EnvBaseURL); v != "" {
		if err := cfg.SetBaseURL(v); err != nil {
			return nil, fmt.Errorf("%s: %w", config.EnvBaseURL, err)
		}
	}
	if v := os.Getenv(config.EnvAPIKey); v != "" {
		cfg.Credentials = auth.APIKey(v)
	}
	cfg.WorkspaceID = os.Getenv(config.EnvWorkspaceID)
	if err := apply(&cfg, opts); err != nil {
		return nil, err
	}
	if shared, ok := cfg.Shared.(*Pipeline); ok {
		return shared, nil
	}
	p := &Pipeline{cfg: &cfg}
	if p.cfg.HTTPClient == nil {
		p.owned = newDefaultTransport()
		p.cfg.HTTPClient = &http.Client{Transport: p.owned}
	}
	p.retry = newRetryClient(newAttemptClient(p.cfg))
	p.tracer = tracerFor(p.cfg.TracerProvider)
	return p, nil
}

// Close releases the idle connections of the transport the pipeline created.
// A caller-supplied HTTP client is left alone.
func (p *Pipeline) Close() {
	if p.owned != nil {
		p.owned.CloseIdleConnections()
	}
}

// apply applies opts in order; a nil Option (option.Option(nil), the only
// one an application can write by hand) does nothing.
func apply(cfg *Config, opts []option.Option) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(cfg); err != nil {
			return err
		}
	}
	return nil
}

// Share returns the option that makes a service use p, the pipeline of the
// client being built, instead of a pipeline of its own.
func Share(p *Pipeline) option.Option {
	return func(c *Config) error {
		c.Shared = p
		return nil
	}
}

// ForService returns the pipeline of a service made from opts: the
// client's, when opts hold Share, else a new one. An option that fails
// gives a pipeline whose every call fails with its error, so that a
// service constructor need not return one.
func ForService(opts []option.Option) *Pipeline {
	p, err := New(opts)
	if err != nil {
		cfg := config.Default()
		return &Pipeline{cfg: &cfg, tracer: tracerFor(nil), broken: err}
	}
	return p
}

// newDefaultTransport is a private copy of http.DefaultTransport, so that
// Client.Close can release its connections without touching a transport the
// rest of the process shares.
func newDefaultTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	t.ResponseHeaderTimeout = 0 // the per-attempt timeout governs, streams must not be cut
	return t
}

// callConfig applies a call's options to a copy of the client's Config.
// The client's retry client serves the call unless the options change
// what its attempt client is built from (redirect.go, attempt.go); retry
// counts, waits, credentials and the like are read from the call itself.
func (p *Pipeline) callConfig(opts []option.Option) (*Config, *retryablehttp.Client, error) {
	if p.broken != nil {
		return nil, nil, p.broken
	}
	if len(opts) == 0 {
		return p.cfg, p.retry, nil // never modified: a call without options shares it
	}
	cfg := *p.cfg
	if err := apply(&cfg, opts); err != nil {
		return nil, nil, err
	}
	client := p.retry
	if !sameAttemptSettings(&cfg, p.cfg) {
		client = newRetryClient(newAttemptClient(&cfg))
	}
	return &cfg, client, nil
}

// send runs req with retries and returns a response with status < 400, whose
// body the caller must close, together with the call's span, which the
// caller ends. On failure the span is already ended and the error is
// *apierror.Error for any other status, *apierror.ValidationError for
// refused input, *apierror.ResponseError for a body over the size limit,
// *apierror.RedirectError for a refused redirect, the credentials' own
// error (wrapped) when they could not authorize the call, else a wrapped
// transport or context error. Calls refused before anything is sent have
// no span.
func (p *Pipeline) send(ctx context.Context, req *Request, opts []option.Option) (*http.Response, Span, error) {
	cfg, rc, err := p.callConfig(opts)
	if err != nil {
		return nil, Span{}, err
	}
	if vc, ok := req.Body.(VersionChecker); ok {
		if err := vc.CheckVersion(cfg.Version); err != nil {
			return nil, Span{}, err
		}
	}
	if req.err != nil {
		return nil, Span{}, req.err
	}
	if cfg.Credentials == nil {
		return nil, Span{}, apierror.ErrNoCredentials
	}
	if cfg.BaseInsecure() && !cfg.AllowInsecure {
		return nil, Span{}, apierror.ErrInsecureHTTP
	}
	body, err := encodeBody(cfg, req)
	if err != nil {
		return nil, Span{}, err
	}
	query := encodeQuery(cfg, req)
	ctx, span := p.startSpan(ctx, cfg, req, query)
	c := &call{cfg: cfg, req: req, span: span}
	ctx = withCall(ctx, c)
	resp, err := p.attempt(ctx, c, rc, query, body)
	if inv, ok := cfg.Credentials.(auth.Invalidator); ok && unauthorized(err) {
		// A token the source still thought valid was refused (revoked, or
		// the clocks disagree): drop it and try once more with a fresh one.
		inv.Invalidate(refusedRequest(err))
		if rerr := c.rewind(nil, err); rerr != nil {
			err = rerr
		} else {
			resp, err = p.attempt(ctx, c, rc, query, body)
		}
	}
	span.attemptsOver()
	switch r := err.(type) {
	case *refused:
		err = r.err // the caller sees the API error itself
	case *rewindError:
		err = r.err // an upload that could not be sent again
	}
	if err != nil {
		span.End(ctx, err)
		return nil, Span{}, err
	}
	return resp, span, nil
}

// unauthorized reports a 401 from the API.
func unauthorized(err error) bool {
	var apiErr *apierror.Error
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusUnauthorized
}

// refusedRequest is the request a 401 answered, carried on the error.
func refusedRequest(err error) *http.Request {
	var r *refused
	if errors.As(err, &r) {
		return r.req
	}
	return nil
}

// refused wraps a 401 with the request that drew it, so that the
// credentials can tell which token was refused. It unwraps to the API error.
type refused struct {
	err error
	req *http.Request
}

func (r *refused) Error() string { return r.err.Error() }
func (r *refused) Unwrap() error { return r.err }

// attempt runs one round of the call: it builds the request, applies the
// credentials and runs the attempts. A call has a second round only after
// a 401 that made its credentials drop their token.
func (p *Pipeline) attempt(ctx context.Context, c *call, rc *retryablehttp.Client, query string, body []byte) (*http.Response, error) {
	cfg, req := c.cfg, c.req
	c.span.setResponse(nil) // until this round's first attempt answers
	rreq, err := buildRequest(ctx, cfg, req, query, body)
	if err != nil {
		return nil, err
	}
	inject(ctx, cfg, rreq.Header)
	if err := c.authorize(ctx, rreq.Request); err != nil {
		return nil, err
	}
	resp, err := rc.Do(rreq)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, attemptError(ctx, req, err)
	}
	if cfg.ResponseInto != nil {
		*cfg.ResponseInto = resp
	}
	if resp.StatusCode >= 400 {
		body, _ := readBody(resp, apierr.MaxBodySize)
		apiErr := apierr.FromResponse(req.Method, req.Path, resp.StatusCode, resp.Header, body)
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, &refused{err: apiErr, req: rreq.Request}
		}
		return nil, apiErr
	}
	return resp, nil
}

// attemptError is the error of a round that got no usable response. The
// SDK's own typed errors are returned as they are, not inside the
// *url.Error of net/http, whose text would repeat the URL (a redirect's
// Location, query included). Anything else is a transport error.
func attemptError(ctx context.Context, req *Request, err error) error {
	var credErr *credentialsError
	var respErr *apierror.ResponseError
	var redirErr *apierror.RedirectError
	var rewErr *rewindError
	switch {
	case errors.As(err, &rewErr):
		return rewErr
	case errors.As(err, &credErr):
		return credErr
	case errors.As(err, &respErr):
		return respErr
	case errors.As(err, &redirErr):
		return redirErr
	}
	return transportError(ctx, req, err)
}

// transportError wraps a failure that produced no response. A context error
// of the caller is returned as the context's own error, wrapped, so that
// errors.Is(err, context.Canceled) holds.
func transportError(ctx context.Context, req *Request, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w (%v)", ctxErr, err)
	}
	return fmt.Errorf("agentplatform: %s %s: %w", req.Method, req.Path, err)
}

// Do sends req and decodes a successful JSON body into a new T. The call's
// span ends after req.Result has annotated it with the decoded value.
func Do[T any](ctx context.Context, p *Pipeline, req *Request, opts []option.Option) (*T, error) {
	resp, span, err := p.send(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := decodeJSON(req, resp, out); err != nil {
		span.End(ctx, err)
		return nil, err
	}
	if req.Result != nil && span.Recording() {
		req.Result(span, out)
	}
	span.End(ctx, nil)
	return out, nil
}

// Stream sends req and returns the response of an event stream with its body
// unread, and the call's span: the caller reads and closes the body, and
// ends the span when the stream ends (Span.End with the stream's error, or
// Span.EndUnset when the application closed it early). Retries cover only
// getting the response headers. A 2xx answer that is not an event stream (a
// proxy's page) is an error, since reading it as one would silently yield
// nothing.
func Stream(ctx context.Context, p *Pipeline, req *Request, opts []option.Option) (*http.Response, Span, error) {
	req.Stream = true
	resp, span, err := p.send(ctx, req, opts)
	if err != nil {
		return nil, Span{}, err
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		resp.Body.Close()
		err := fmt.Errorf("agentplatform: %s %s: expected an event stream, got Content-Type %q", req.Method, req.Path, ct)
		span.End(ctx, err)
		return nil, Span{}, err
	}
	return resp, span, nil
}
