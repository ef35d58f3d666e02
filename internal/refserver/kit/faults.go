package kit

import (
	"net/http"
	"sync"
	"time"
)

// Fault makes matching requests fail or slow down, for reliability tests.
// It applies after the request is logged and before anything else, so even
// unknown routes and unauthenticated requests can be faulted.
type Fault struct {
	Method            string        // "" matches any method
	Path              string        // exact URL path; "" matches any
	Status            int           // 0: inject no status (use with Delay or Drop)
	ErrorType         string        // error.type of the injected body; default from Status
	Message           string        // default: a short text
	Header            http.Header   // added to the injected response, e.g. retry-after, retry-after-ms, x-should-retry
	Body              string        // if set, sent verbatim instead of the JSON error body; Content-Type from Header or text/html
	Delay             time.Duration // wait before answering (or before passing on when Status==0); returns early if the client goes away
	Drop              bool          // hijack and close the connection without any response
	DropAfterHandling bool          // run the real handler (state changes happen), then close the connection without sending its response
	// StreamCutAfter, on a Stream Events request or a streaming Messages
	// or chat-completions request, lets the stream write that many events
	// (previews included, pings and keep-alives not) and then drops the
	// connection mid-body. With Status also set, the stream instead sends an
	// `event: error` frame carrying the API's error body (ErrorType,
	// Message) and ends cleanly (docs/session-events-wire.md 2.3, "Errors
	// mid-stream"; docs/messages-wire.md 8.2; chat completions send their
	// `data: {"error":…}` frame). A stream shorter than that ends normally.
	// Drop and Status do not apply before the handler then. On other
	// requests the fault does nothing but is still used up, unless
	// StreamOnly is set.
	StreamCutAfter int
	// StreamOnly restricts the fault to requests that ask for an event
	// stream: Stream Events, and a Messages or chat-completions POST whose
	// body has "stream": true. Other requests pass it by without using it
	// up, so a StreamCutAfter fault on /v1/messages cuts a stream even
	// while non-streamed calls share the path.
	StreamOnly bool
	Times      int // how many matching requests it applies to; 0 means 1 (with StreamCutAfter: that many streams are cut)
}

func (f *Fault) matches(method, path string, stream func() bool) bool {
	return (f.Method == "" || f.Method == method) && (f.Path == "" || f.Path == path) && (!f.StreamOnly || stream())
}

// FaultQueue holds the injected faults not used up yet.
type FaultQueue struct {
	mu      sync.Mutex
	pending []*pendingFault
}

type pendingFault struct {
	fault     Fault
	remaining int
}

// Add queues f; it applies to f.Times requests (at least one).
func (q *FaultQueue) Add(f Fault) {
	times := f.Times
	if times <= 0 {
		times = 1
	}
	f.Header = f.Header.Clone()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, &pendingFault{fault: f, remaining: times})
}

// Pending returns the faults not used up yet, in the order they apply,
// each with Times set to the uses it has left.
func (q *FaultQueue) Pending() []Fault {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Fault, 0, len(q.pending))
	for _, p := range q.pending {
		f := p.fault
		f.Header = f.Header.Clone()
		f.Times = p.remaining
		out = append(out, f)
	}
	return out
}

// Clear removes every pending fault.
func (q *FaultQueue) Clear() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = nil
}

// Queued reports whether any fault is pending.
func (q *FaultQueue) Queued() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending) > 0
}

// Take consumes one use of the first fault matching the request. isStream
// tells whether the request asks for an event stream; it is called only
// when a StreamOnly fault needs it, at most once.
func (q *FaultQueue) Take(method, path string, body []byte, isStream func(method, path string, body []byte) bool) (Fault, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	checked, streams := false, false
	stream := func() bool {
		if !checked {
			checked, streams = true, isStream(method, path, body)
		}
		return streams
	}
	for i, p := range q.pending {
		if !p.fault.matches(method, path, stream) {
			continue
		}
		p.remaining--
		if p.remaining == 0 {
			q.pending = append(q.pending[:i], q.pending[i+1:]...)
		}
		return p.fault, true
	}
	return Fault{}, false
}

// WriteFault sends the injected status with its headers and either the
// verbatim Body or the API's JSON error body.
func WriteFault(w http.ResponseWriter, requestID string, f Fault) {
	for name, values := range f.Header {
		for _, v := range values {
			w.Header().Add(name, v)
		}
	}
	if f.Body != "" {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.WriteHeader(f.Status)
		_, _ = w.Write([]byte(f.Body))
		return
	}
	typ := f.ErrorType
	if typ == "" {
		typ = ErrorTypeForStatus(f.Status)
	}
	msg := f.Message
	if msg == "" {
		msg = DefaultFaultMessage(f.Status)
	}
	WriteError(w, requestID, &APIError{Status: f.Status, Type: typ, Message: msg})
}

// DefaultFaultMessage is the message of an injected status without one.
func DefaultFaultMessage(status int) string {
	if status == 529 {
		return "Overloaded (injected fault)"
	}
	if text := http.StatusText(status); text != "" {
		return text + " (injected fault)"
	}
	return "Injected fault"
}

// DropConnection closes the client connection without a response. Where
// the connection cannot be hijacked (HTTP/2), aborting the handler has the
// same effect for the client.
func DropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}
