package refserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"time"
	"unicode/utf8"
)

// maxBodyBytes is the request body limit (docs/api-choices.md, "Transport").
const maxBodyBytes = 32 << 20

// exchange is what the pipeline knows about one request before routing.
type exchange struct {
	requestID string
	// body is the request body once loadBody has read it: after
	// authentication, for a public route, or when a test fault is queued.
	body     []byte
	bodyRead bool
	bodyErr  *apiError
	raw      http.ResponseWriter // the connection's writer, for the body limit
	rb       *responseBuffer
	dropped  bool // the connection was closed without a response
	// streamFault is a Fault.StreamCutAfter that matched this request,
	// for the stream handler to apply.
	streamFault *Fault

	started time.Time
	// errType is the error.type of the error answered, in the body or in a
	// stream's error event; span is the request's SERVER span (tracing.go),
	// nil when there is none.
	errType string
	span    *requestSpan
	// logged is the request's entry in the request log, which gets the
	// body once the request is worth keeping it for.
	logged *RecordedRequest
}

type exchangeKey struct{}

func exchangeFrom(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// ServeHTTP runs the part of the pipeline that applies to every request,
// known route or not: request id, body limit, request log, fault injection,
// panic recovery. Routing then hands over to the route's own chain
// (serveRoute) or to the JSON 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	started := time.Now()
	ex := &exchange{requestID: s.cfg.ids("req_"), started: started}
	w.Header().Set("request-id", ex.requestID)
	// One organization per server; its id never changes after New.
	w.Header().Set("vendor-organization-id", s.seed.OrganizationID)
	ex.rb = newResponseBuffer(w)
	markChatCompletions(r, ex.rb)
	defer func() { s.logRequest(r, ex, time.Since(started)) }()
	defer s.endRequestSpan(r, ex) // after the response is committed or dropped

	ex.raw = w
	ex.logged = s.requests.add(r, s.cfg.clock.Now())
	s.tick() // time-driven work first, so the request sees a current state

	// The body is read only once the request has earned it (loadBody), so
	// that a client without a key, or a path that does not exist, costs no
	// memory for what it sends. Faults are for tests, which may match on
	// the body: with any queued, it is read first.
	var fault Fault
	faulted := false
	if s.faults.queued() {
		if err := ex.loadBody(r); err != nil {
			writeError(ex.rb, ex.requestID, err)
			ex.rb.commit()
			return
		}
		if fault, faulted = s.faults.take(r.Method, r.URL.Path, ex.body); faulted {
			s.requests.keepBody(ex.logged, ex.body) // a fault the test set up took it
		}
	}
	if faulted && s.applyFault(w, r, ex, fault) {
		return
	}

	r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex))
	s.dispatch(r, ex)

	if faulted && fault.DropAfterHandling {
		ex.dropped = true
		dropConnection(w)
		return
	}
	if !ex.bodyRead && unreadBodyMayBeLarge(r) {
		// net/http would read what is left of it before answering, to keep
		// the connection; refusing the body means closing it instead.
		w.Header().Set("Connection", "close")
	}
	ex.rb.commit()
}

// dispatch routes the request and turns a handler panic into a 500.
func (s *Server) dispatch(r *http.Request, ex *exchange) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler || ex.rb.committed {
			// Nothing clean can be sent any more: abort the connection,
			// which net/http does quietly for ErrAbortHandler.
			ex.dropped = true
			panic(http.ErrAbortHandler)
		}
		s.cfg.logger.Error("handler panic", "request_id", ex.requestID, "method", r.Method, "path", r.URL.Path,
			"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		ex.rb.discard()
		writeError(ex.rb, ex.requestID, newAPIError(http.StatusInternalServerError, errAPI, "Internal server error."))
	}()
	// ServeMux answers unclean paths ("/v1//models") with a plain-text
	// redirect; the API has no such paths, so they are unknown routes.
	if path.Clean(r.URL.Path) != r.URL.Path {
		s.notFoundRoute(ex.rb, r)
		return
	}
	s.mux.ServeHTTP(ex.rb, r)
}

// unreadBodyMayBeLarge reports whether r has a body that net/http would
// not discard cheaply after the handler: one of unknown length, or longer
// than the little it reads to keep a connection alive.
func unreadBodyMayBeLarge(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && (r.ContentLength < 0 || r.ContentLength > 256<<10)
}

// loadBody reads r's body into ex.body, once; later calls return the first
// result. Handlers read ex.body (r.Body is replaced by a reader over it).
func (ex *exchange) loadBody(r *http.Request) *apiError {
	if !ex.bodyRead {
		ex.bodyRead = true
		ex.body, ex.bodyErr = readBody(ex.raw, r)
		r.Body = io.NopCloser(bytes.NewReader(ex.body))
	}
	return ex.bodyErr
}

// readBody reads the whole body (the request log and idempotency need its
// bytes) and enforces the size limit.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, newAPIError(http.StatusRequestEntityTooLarge, errRequestTooLarge,
				"request body: must be at most %d bytes", maxBodyBytes)
		}
		return nil, invalidRequest("request body: could not be read")
	}
	// JSON text is UTF-8. Decoding would quietly replace invalid bytes in
	// some places and keep them in others (an event's text echoed back raw
	// is no longer JSON), so every endpoint refuses them alike.
	if !utf8.Valid(body) {
		return nil, invalidRequest("request body: must be valid UTF-8")
	}
	return body, nil
}

// notFoundRoute answers every path and method that no route claims.
func (s *Server) notFoundRoute(w http.ResponseWriter, r *http.Request) {
	ex := exchangeFrom(r.Context())
	writeError(w, ex.requestID, notFound("No route for %s %s.", r.Method, r.URL.Path))
}

// serveRoute is the chain of a known route, in the order the API applies it:
// authentication, workspace selection (workspace_selection.go), the
// admin-API rule and
// access-token scopes, vendor-version, vendor-beta, idempotency, then the
// handler. Public routes (the token exchanges) run their handler only.
func (s *Server) serveRoute(rt route) http.HandlerFunc {
	admin := isAdminPath(rt.path)
	return func(w http.ResponseWriter, r *http.Request) {
		c := &call{s: s, w: w, r: r, ex: exchangeFrom(r.Context())}
		c.startSpan(rt, false)
		if rt.public {
			if err := c.ex.loadBody(r); err != nil {
				c.fail(err)
				return
			}
			s.requests.keepBody(c.ex.logged, c.ex.body)
			c.run(rt.handle)
			return
		}
		if err := s.prepareCall(c, rt, admin); err != nil {
			c.fail(err)
			return
		}
		if r.Method == http.MethodPost && (rt.streams == nil || !rt.streams(c.ex.body)) {
			s.runIdempotent(c, rt.handle)
			return
		}
		c.run(rt.handle)
	}
}

func (s *Server) prepareCall(c *call, rt route, admin bool) error {
	caller, err := s.authenticate(c.r.Header)
	if err != nil {
		return err
	}
	if err := c.ex.loadBody(c.r); err != nil {
		return err
	}
	s.requests.keepBody(c.ex.logged, c.ex.body)
	c.caller = caller
	c.startSpan(rt, true)
	wsID, err := s.selectWorkspace(caller, c.r.Header.Get(headerWorkspaceID))
	if err != nil {
		return err
	}
	c.workspaceID = wsID
	c.w.Header().Set(headerWorkspaceID, wsID)
	if err := checkAccess(caller, rt, c.r, admin); err != nil {
		return err
	}
	if err := checkVersion(c.r.Header); err != nil {
		return err
	}
	betas, err := parseBetas(c.r.Header)
	if err != nil {
		return err
	}
	if err := requireBeta(rt.betas, betas); err != nil {
		return err
	}
	c.betas = betas
	return nil
}

// logRequest writes one line per request when a logger is configured. It
// logs no header, query or body: those may carry credentials.
func (s *Server) logRequest(r *http.Request, ex *exchange, elapsed time.Duration) {
	if !s.cfg.logger.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	s.cfg.logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("request_id", ex.requestID),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", ex.rb.statusCode()),
		slog.Bool("dropped", ex.dropped),
		slog.Duration("duration", elapsed),
	)
}
