package platformtest

import (
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Fault makes matching requests fail or slow down, for tests of how an
// application copes with an unreliable API. A fault meets a request before
// anything else happens to it (authentication included) and is used up by
// it. Set Status, Delay, Drop, DropAfterHandling or StreamCutAfter; they
// combine as described below.
type Fault struct {
	// Method and Path select the requests: an exact method ("" for any)
	// and an exact URL path such as "/v1/sessions" ("" for any).
	Method, Path string

	// Status answers with this HTTP status and an error body of the API's
	// shape. 0 answers normally (after Delay, say).
	Status int
	// ErrorType and Message are the error body's type and message; by
	// default the type that goes with Status and a short text.
	ErrorType, Message string
	// Header is added to the injected response: retry-after,
	// retry-after-ms or x-should-retry, say.
	Header http.Header
	// Body replaces the error body verbatim, as a proxy's HTML page would
	// (Content-Type from Header, else text/html).
	Body string

	// Delay holds the request this long (real time) before answering, or
	// before handling it when Status is 0; a client that goes away ends the
	// wait.
	Delay time.Duration
	// Drop closes the connection without any response.
	Drop bool
	// DropAfterHandling handles the request (what it changes, changes) and
	// then closes the connection without its response: for code that must
	// not repeat a write it cannot see succeed.
	DropAfterHandling bool
	// StreamCutAfter, on a streaming request (Stream Events, a streamed
	// Messages call), lets that many events through (previews included,
	// pings not) and then drops the connection; with Status set, it sends an
	// error event instead and ends the stream. A shorter stream ends
	// normally. On any other request it only uses the fault up, so set Path
	// to the stream's, or set StreamOnly.
	StreamCutAfter int
	// StreamOnly restricts the fault to requests that ask for an event
	// stream: Stream Events, and a Messages call with "stream": true (as
	// Messages.Stream sends it). Other requests pass it by without using
	// it up, so a cut aimed at /v1/messages reaches a stream even when
	// non-streamed calls go to the same path.
	StreamOnly bool

	// Times is how many matching requests the fault applies to; 0 means 1.
	Times int
}

// InjectFault adds a fault. Faults apply in the order added: a request
// meets the first pending fault that matches it, and uses one of its
// Times.
func (s *Server) InjectFault(f Fault) {
	s.rs.InjectFault(refserver.Fault{
		Method:            f.Method,
		Path:              f.Path,
		Status:            f.Status,
		ErrorType:         f.ErrorType,
		Message:           f.Message,
		Header:            f.Header,
		Body:              f.Body,
		Delay:             f.Delay,
		Drop:              f.Drop,
		DropAfterHandling: f.DropAfterHandling,
		StreamCutAfter:    f.StreamCutAfter,
		StreamOnly:        f.StreamOnly,
		Times:             f.Times,
	})
}

// ClearFaults removes every pending fault.
func (s *Server) ClearFaults() { s.rs.ClearFaults() }

// Request is a request as the server received it. Credentials are
// redacted: the Authorization and x-api-key headers read "[redacted]" (a
// scheme such as Bearer stays), and so do the secret fields of a body
// (authorization_token, assertion, attestation).
type Request struct {
	Method   string
	Path     string // the URL path, such as "/v1/sessions"
	RawQuery string // the encoded query, without '?'
	Header   http.Header
	Body     []byte
	Time     time.Time // when it arrived, on the server's clock
}

// Requests returns the requests the server received, oldest first: every
// attempt, retries and faulted requests included, which is how a test
// counts a client's retries or checks the headers it sent. The server keeps
// the most recent 1000.
func (s *Server) Requests() []Request {
	recorded := s.rs.Requests()
	out := make([]Request, len(recorded))
	for i, r := range recorded {
		out[i] = Request{
			Method:   r.Method,
			Path:     r.Path,
			RawQuery: r.RawQuery,
			Header:   r.Header,
			Body:     r.Body,
			Time:     r.Time,
		}
	}
	return out
}
