package kit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"
)

// Route is one endpoint: its ServeMux pattern parts, its operation, the beta
// values of which the request must send at least one (nil: none), and its
// handler. Whether it belongs to the admin API follows from its path.
type Route struct {
	Method string
	Path   string
	// Op names the request's SERVER span, vendor.<op> (docs/tracing.md);
	// "" for the routes the API emits no span for.
	Op     string
	Betas  []string
	Handle func(*Call) error
	// Streams, if set, reports whether a request body asks for a stream;
	// a streaming POST ignores Idempotency-Key (docs/messages-wire.md 1.2).
	Streams func(body []byte) bool
	// Public routes take no credential (the token exchanges,
	// docs/auth-wire.md 1.2): no authentication, workspace selection, access check or
	// idempotency; the handler runs vendor-version and vendor-beta itself.
	Public bool
	// RawBody routes get the request body unread (Call.R.Body): the
	// pipeline authenticates and checks the request as usual but neither
	// loads the body nor keeps it in the request log, so the handler can
	// stream a body larger than MaxBodyBytes (a file upload). Under an
	// Idempotency-Key the handler calls Call.ClaimIdempotency once it has
	// read the body (IdempotencyStore.RunRaw).
	RawBody bool
}

// Deps is what every call may use of the server it runs in: the clock,
// the id source and the logger. The server builds one and shares it.
type Deps struct {
	Clock  Clock
	IDs    IDSource
	Logger *slog.Logger
}

// Now is the clock truncated to the microseconds the wire carries, so that
// what is stored equals what clients see (cursors compare stored times).
func (d *Deps) Now() time.Time {
	return d.Clock.Now().UTC().Truncate(time.Microsecond)
}

// Caller is who a request authenticated as (an API key or an access
// token). The server's identity code implements it.
type Caller interface {
	// ActorID is the id recorded as the actor of what the request changes.
	ActorID() string
	// IdempotencyOwner is whose Idempotency-Keys the request shares.
	IdempotencyOwner() string
}

// Call is one routed request, as a handler sees it: who is calling, in which
// workspace, and helpers to read the request and write the response.
type Call struct {
	Deps        *Deps
	W           http.ResponseWriter
	R           *http.Request
	Ex          *Exchange
	Caller      Caller          // nil on public routes
	WorkspaceID string          // the workspace the request runs in
	Betas       map[string]bool // vendor-beta values sent
	Version     string          // the API version the request asks for (kit.CheckVersion)

	// claim is set by IdempotencyStore.RunRaw for ClaimIdempotency.
	claim func(digest [32]byte) (replayed bool, err error)
}

// ClaimIdempotency is for RawBody handlers, which read the body themselves:
// once the whole body is read, the handler passes a digest of what the
// request asks for (the same digest for the same request, whatever its
// framing, such as a multipart boundary). Under an Idempotency-Key already
// used with the same digest the stored response has been sent, and replayed
// is true: the handler must change nothing and return nil. The same key
// with another digest, or one still in flight, is the error to return.
// Without a key (or off a RawBody route) it returns false, nil.
func (c *Call) ClaimIdempotency(digest [32]byte) (replayed bool, err error) {
	if c.claim == nil {
		return false, nil
	}
	claim := c.claim
	c.claim = nil // once
	return claim(digest)
}

// Run calls a handler and writes the error it returns, if any.
func (c *Call) Run(handle func(*Call) error) {
	if err := handle(c); err != nil {
		c.Fail(err)
	}
}

// Fail writes err as the API's error body. Anything that is not an *APIError is a
// bug in the server and becomes a 500 whose details go to the log only.
func (c *Call) Fail(err error) {
	var ae *APIError
	if !errors.As(err, &ae) {
		c.Deps.Logger.Error("handler error", "request_id", c.Ex.RequestID, "error", err)
		ae = NewAPIError(http.StatusInternalServerError, ErrAPI, "Internal server error.")
	}
	c.Ex.ErrType = ae.Type
	WriteError(c.W, c.Ex.RequestID, ae)
}

// OK writes v as a 200 JSON response.
func (c *Call) OK(v any) error {
	WriteJSON(c.W, http.StatusOK, v)
	return nil
}

// Decode reads the JSON body strictly into dst (see DecodeStrict).
func (c *Call) Decode(dst any) error {
	return DecodeStrict(c.Ex.Body, dst)
}

// Now is the server clock as the wire carries it (Deps.Now).
func (c *Call) Now() time.Time {
	return c.Deps.Now()
}

// MaxBodyBytes is the request body limit (docs/api-choices.md, "Transport").
const MaxBodyBytes = 32 << 20

// Exchange is what the pipeline knows about one request before routing.
type Exchange struct {
	RequestID string
	// Body is the request body once LoadBody has read it: after
	// authentication, for a public route, or when a test fault is queued.
	Body []byte
	// Conn is the connection's writer, which enforces the body limit.
	Conn     http.ResponseWriter
	bodyRead bool
	bodyErr  *APIError
	RB       *ResponseBuffer
	Dropped  bool // the connection was closed without a response
	// StreamFault is a Fault.StreamCutAfter that matched this request,
	// for the stream handler to apply.
	StreamFault *Fault

	Started time.Time
	// ErrType is the error.type of the error answered, in the body or in a
	// stream's error event.
	ErrType string
	// Span is the request's SERVER span, owned by the server's tracing;
	// nil when there is none.
	Span any
	// Logged is the request's entry in the request log, which gets the
	// body once the request is worth keeping it for.
	Logged *RecordedRequest
}

type exchangeKey struct{}

// WithExchange returns ctx carrying ex, for ExchangeFrom.
func WithExchange(ctx context.Context, ex *Exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// ExchangeFrom is the exchange WithExchange put in ctx, or nil.
func ExchangeFrom(ctx context.Context) *Exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*Exchange)
	return ex
}

// LoadBody reads r's body into Body, once; later calls return the first
// result. Handlers read Body (r.Body is replaced by a reader over it).
func (ex *Exchange) LoadBody(r *http.Request) *APIError {
	if !ex.bodyRead {
		ex.bodyRead = true
		ex.Body, ex.bodyErr = ReadBody(ex.Conn, r)
		r.Body = io.NopCloser(bytes.NewReader(ex.Body))
	}
	return ex.bodyErr
}

// BodyRead reports whether LoadBody has run, or a RawBody handler said it
// read the body to its end (SetBodyRead).
func (ex *Exchange) BodyRead() bool { return ex.bodyRead }

// SetBodyRead is for RawBody handlers: the body was read to its end, so the
// connection can be kept (the pipeline closes it after a body left unread,
// rather than let net/http read the rest).
func (ex *Exchange) SetBodyRead() { ex.bodyRead = true }

// ReadBody reads the whole body (the request log and idempotency need its
// bytes) and enforces the size limit.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, *APIError) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, NewAPIError(http.StatusRequestEntityTooLarge, ErrRequestTooLarge,
				"request body: must be at most %d bytes", MaxBodyBytes)
		}
		return nil, InvalidRequest("request body: could not be read")
	}
	// JSON text is UTF-8. Decoding would quietly replace invalid bytes in
	// some places and keep them in others (an event's text echoed back raw
	// is no longer JSON), so every endpoint refuses them alike.
	if !utf8.Valid(body) {
		return nil, InvalidRequest("request body: must be valid UTF-8")
	}
	return body, nil
}
