package refserver

import (
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/identity"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// ServeHTTP runs the part of the pipeline that applies to every request,
// known route or not: request id, body limit, request log, fault injection,
// panic recovery. Routing then hands over to the route's own chain
// (serveRoute) or to the JSON 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	started := time.Now()
	ex := &kit.Exchange{RequestID: s.cfg.ids("req_"), Started: started}
	w.Header().Set("request-id", ex.RequestID)
	// One organization per server; its id never changes after New.
	w.Header().Set("vendor-organization-id", s.seed.OrganizationID)
	ex.RB = kit.NewResponseBuffer(w)
	messages.MarkChatCompletions(r, ex.RB)
	defer func() { s.logRequest(r, ex, time.Since(started)) }()
	defer s.trace.EndRequest(r, ex, s.seed.OrganizationID) // after the response is committed or dropped

	ex.Conn = w
	ex.Logged = s.requests.Add(r, s.cfg.clock.Now())
	s.tick() // time-driven work first, so the request sees a current state

	// The body is read only once the request has earned it (LoadBody), so
	// that a client without a key, or a path that does not exist, costs no
	// memory for what it sends. Faults are for tests, which may match on
	// the body: with any queued, it is read first.
	var fault kit.Fault
	faulted := false
	if s.faults.Queued() && s.rawBodyRoute(r) {
		// A streamed body (a file upload) is left for its handler: faults
		// match it by method and path only.
		fault, faulted = s.faults.Take(r.Method, r.URL.Path, nil, streamRequest)
	} else if s.faults.Queued() {
		if err := ex.LoadBody(r); err != nil {
			kit.WriteError(ex.RB, ex.RequestID, err)
			ex.RB.Commit()
			return
		}
		if fault, faulted = s.faults.Take(r.Method, r.URL.Path, ex.Body, streamRequest); faulted {
			s.requests.KeepBody(ex.Logged, ex.Body) // a fault the test set up took it
		}
	}
	if faulted && s.applyFault(w, r, ex, fault) {
		return
	}

	r = r.WithContext(kit.WithExchange(r.Context(), ex))
	s.dispatch(r, ex)

	if faulted && fault.DropAfterHandling {
		ex.Dropped = true
		kit.DropConnection(w)
		return
	}
	if !ex.BodyRead() && unreadBodyMayBeLarge(r) {
		// net/http would read what is left of it before answering, to keep
		// the connection; refusing the body means closing it instead.
		w.Header().Set("Connection", "close")
	}
	ex.RB.Commit()
}

// rawBodyRoute reports whether r goes to a kit.Route with RawBody set,
// whose handler reads the body itself.
func (s *Server) rawBodyRoute(r *http.Request) bool {
	if len(s.rawRoutes) == 0 {
		return false
	}
	_, pattern := s.mux.Handler(r)
	return s.rawRoutes[pattern]
}

// unreadBodyMayBeLarge reports whether r has a body that net/http would
// not discard cheaply after the handler: one of unknown length, or longer
// than the little it reads to keep a connection alive.
func unreadBodyMayBeLarge(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && (r.ContentLength < 0 || r.ContentLength > 256<<10)
}

// dispatch routes the request and turns a handler panic into a 500.
func (s *Server) dispatch(r *http.Request, ex *kit.Exchange) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler || ex.RB.Committed {
			// Nothing clean can be sent any more: abort the connection,
			// which net/http does quietly for ErrAbortHandler.
			ex.Dropped = true
			panic(http.ErrAbortHandler)
		}
		s.cfg.logger.Error("handler panic", "request_id", ex.RequestID, "method", r.Method, "path", r.URL.Path,
			"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		ex.RB.Discard()
		kit.WriteError(ex.RB, ex.RequestID, kit.NewAPIError(http.StatusInternalServerError, kit.ErrAPI, "Internal server error."))
	}()
	// ServeMux answers unclean paths ("/v1//models") with a plain-text
	// redirect; the API has no such paths, so they are unknown routes.
	if path.Clean(r.URL.Path) != r.URL.Path {
		s.notFoundRoute(ex.RB, r)
		return
	}
	s.mux.ServeHTTP(ex.RB, r)
}

// notFoundRoute answers every path and method that no route claims.
func (s *Server) notFoundRoute(w http.ResponseWriter, r *http.Request) {
	ex := kit.ExchangeFrom(r.Context())
	kit.WriteError(w, ex.RequestID, kit.NotFound("No route for %s %s.", r.Method, r.URL.Path))
}

// serveRoute is the chain of a known route, in the order the API applies it:
// authentication, workspace selection (identity/workspace_selection.go), the
// admin-API rule and
// access-token scopes, vendor-version, vendor-beta, idempotency, then the
// handler. Public routes (the token exchanges) run their handler only.
func (s *Server) serveRoute(rt kit.Route) http.HandlerFunc {
	admin := identity.IsAdminPath(rt.Path)
	return func(w http.ResponseWriter, r *http.Request) {
		c := &kit.Call{Deps: s.deps, W: w, R: r, Ex: kit.ExchangeFrom(r.Context())}
		s.trace.StartRequest(c, rt, false)
		if rt.Public {
			if err := c.Ex.LoadBody(r); err != nil {
				c.Fail(err)
				return
			}
			s.requests.KeepBody(c.Ex.Logged, c.Ex.Body)
			c.Run(rt.Handle)
			return
		}
		if err := s.prepareCall(c, rt, admin); err != nil {
			c.Fail(err)
			return
		}
		if r.Method == http.MethodPost && rt.RawBody {
			s.idempotency.RunRaw(c, rt.Handle)
			return
		}
		if r.Method == http.MethodPost && (rt.Streams == nil || !rt.Streams(c.Ex.Body)) {
			s.idempotency.Run(c, rt.Handle)
			return
		}
		c.Run(rt.Handle)
	}
}

func (s *Server) prepareCall(c *kit.Call, rt kit.Route, admin bool) error {
	caller, err := s.identity.Authenticate(c.R.Header)
	if err != nil {
		return err
	}
	if !rt.RawBody {
		if err := c.Ex.LoadBody(c.R); err != nil {
			return err
		}
		s.requests.KeepBody(c.Ex.Logged, c.Ex.Body)
	}
	c.Caller = caller
	s.trace.StartRequest(c, rt, true)
	wsID, err := s.identity.SelectWorkspace(caller, c.R.Header.Get(kit.HeaderWorkspaceID))
	if err != nil {
		return err
	}
	c.WorkspaceID = wsID
	c.W.Header().Set(kit.HeaderWorkspaceID, wsID)
	if err := s.identity.CheckAccess(caller, rt, c.R, admin); err != nil {
		return err
	}
	version, err := kit.CheckVersion(c.R.Header)
	if err != nil {
		return err
	}
	c.Version = version
	betas, err := kit.ParseBetas(c.R.Header)
	if err != nil {
		return err
	}
	if err := kit.RequireBeta(rt.Betas, betas); err != nil {
		return err
	}
	c.Betas = betas
	return s.checkEnvironmentKeyTarget(c) // work.go
}

// logRequest writes one line per request when a logger is configured. It
// logs no header, query or body: those may carry credentials.
func (s *Server) logRequest(r *http.Request, ex *kit.Exchange, elapsed time.Duration) {
	if !s.cfg.logger.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	s.cfg.logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("request_id", ex.RequestID),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", ex.RB.StatusCode()),
		slog.Bool("dropped", ex.Dropped),
		slog.Duration("duration", elapsed),
	)
}
