package refserver

import (
	"errors"
	"net/http"
	"time"
)

// route is one endpoint: its ServeMux pattern parts, its operation, the beta
// values of which the request must send at least one (nil: none), and its
// handler. Whether it belongs to the admin API follows from its path.
type route struct {
	method string
	path   string
	// op names the request's SERVER span, vendor.<op> (docs/tracing.md);
	// "" for the routes the API emits no span for.
	op     string
	betas  []string
	handle func(*call) error
	// streams, if set, reports whether a request body asks for a stream;
	// a streaming POST ignores Idempotency-Key (docs/messages-wire.md 1.2).
	streams func(body []byte) bool
	// public routes take no credential (the token exchanges,
	// docs/auth-wire.md 1.2): no authentication, workspace selection, access check or
	// idempotency; the handler runs vendor-version and vendor-beta itself.
	public bool
}

// call is one routed request, as a handler sees it: who is calling, in which
// workspace, and helpers to read the request and write the response.
type call struct {
	s           *Server
	w           http.ResponseWriter
	r           *http.Request
	ex          *exchange
	caller      principal
	workspaceID string          // the workspace the request runs in (workspace_selection.go)
	betas       map[string]bool // vendor-beta values sent
}

// run calls a handler and writes the error it returns, if any.
func (c *call) run(handle func(*call) error) {
	if err := handle(c); err != nil {
		c.fail(err)
	}
}

// fail writes err as the API's error body. Anything that is not an *apiError is a
// bug in the server and becomes a 500 whose details go to the log only.
func (c *call) fail(err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		c.s.cfg.logger.Error("handler error", "request_id", c.ex.requestID, "error", err)
		ae = newAPIError(http.StatusInternalServerError, errAPI, "Internal server error.")
	}
	c.ex.errType = ae.typ
	writeError(c.w, c.ex.requestID, ae)
}

// ok writes v as a 200 JSON response.
func (c *call) ok(v any) error {
	writeJSON(c.w, http.StatusOK, v)
	return nil
}

// decode reads the JSON body strictly into dst (see decodeStrict).
func (c *call) decode(dst any) error {
	return decodeStrict(c.ex.body, dst)
}

// now is the server clock, truncated to the microseconds the wire carries so
// that what is stored equals what clients see (cursors compare stored times).
func (c *call) now() time.Time {
	return c.s.now()
}

func (s *Server) now() time.Time {
	return s.cfg.clock.Now().UTC().Truncate(time.Microsecond)
}
