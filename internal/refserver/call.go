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
	Method string
	Path   string
	// Op names the request's SERVER span, vendor.<Op> (docs/tracing.md);
	// "" for the routes the API emits no span for.
	Op     string
	Betas  []string
	Handle func(*call) error
	// Streams, if set, reports whether a request body asks for a stream;
	// a streaming POST ignores Idempotency-Key (docs/messages-wire.md 1.2).
	Streams func(body []byte) bool
	// Public routes take no credential (the token exchanges,
	// docs/auth-wire.md 1.2): no authentication, workspace selection, access check or
	// idempotency; the handler runs vendor-version and vendor-beta itself.
	Public bool
}

// call is one routed request, as a handler sees it: who is calling, in which
// workspace, and helpers to read the request and write the response.
type call struct {
	s           *Server
	W           http.ResponseWriter
	R           *http.Request
	Ex          *exchange
	Caller      principal
	WorkspaceID string          // the workspace the request runs in (workspace_selection.go)
	Betas       map[string]bool // vendor-beta values sent
}

// Run calls a handler and writes the error it returns, if any.
func (c *call) Run(handle func(*call) error) {
	if err := handle(c); err != nil {
		c.Fail(err)
	}
}

// Fail writes err as the API's error body. Anything that is not an *apiError is a
// bug in the server and becomes a 500 whose details go to the log only.
func (c *call) Fail(err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		c.s.cfg.logger.Error("handler error", "request_id", c.Ex.RequestID, "error", err)
		ae = newAPIError(http.StatusInternalServerError, errAPI, "Internal server error.")
	}
	c.Ex.ErrType = ae.Type
	writeError(c.W, c.Ex.RequestID, ae)
}

// OK writes v as a 200 JSON response.
func (c *call) OK(v any) error {
	writeJSON(c.W, http.StatusOK, v)
	return nil
}

// Decode reads the JSON body strictly into dst (see decodeStrict).
func (c *call) Decode(dst any) error {
	return decodeStrict(c.Ex.Body, dst)
}

// Now is the server clock, truncated to the microseconds the wire carries so
// that what is stored equals what clients see (cursors compare stored times).
func (c *call) Now() time.Time {
	return c.s.now()
}

func (s *Server) now() time.Time {
	return s.cfg.clock.Now().UTC().Truncate(time.Microsecond)
}
