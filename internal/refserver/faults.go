package refserver

import (
	"net/http"
	"strings"
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

// streamRequest reports whether a request asks for an event stream, as its
// handler will decide: Stream Events by its route, Messages and chat
// completions by "stream": true in the body.
func streamRequest(method, path string, body []byte) bool {
	switch method {
	case http.MethodGet:
		rest, ok := strings.CutPrefix(path, "/v1/sessions/")
		id, ok2 := strings.CutSuffix(rest, "/events/stream")
		return ok && ok2 && id != "" && !strings.Contains(id, "/")
	case http.MethodPost:
		return (path == pathMessages || path == pathChatCompletions) && bodyStreams(body)
	}
	return false
}

type faultQueue struct {
	mu      sync.Mutex
	pending []*pendingFault
}

type pendingFault struct {
	fault     Fault
	remaining int
}

// InjectFault adds a fault. Faults are checked in the order added; the first
// that matches a request is applied to it and used up once.
func (s *Server) InjectFault(f Fault) {
	times := f.Times
	if times <= 0 {
		times = 1
	}
	f.Header = f.Header.Clone()
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.pending = append(s.faults.pending, &pendingFault{fault: f, remaining: times})
}

// PendingFaults returns the faults not used up yet, in the order they
// apply, each with Times set to the uses it has left: how a test tells how
// many of the faults it injected met a request.
func (s *Server) PendingFaults() []Fault {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	out := make([]Fault, 0, len(s.faults.pending))
	for _, p := range s.faults.pending {
		f := p.fault
		f.Header = f.Header.Clone()
		f.Times = p.remaining
		out = append(out, f)
	}
	return out
}

// ClearFaults removes every pending fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.pending = nil
}

// take consumes one use of the first fault matching the request. The body
// is read only when a StreamOnly fault needs it, at most once.
func (q *faultQueue) take(method, path string, body []byte) (Fault, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	checked, isStream := false, false
	stream := func() bool {
		if !checked {
			checked, isStream = true, streamRequest(method, path, body)
		}
		return isStream
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

// applyFault carries out the pre-handler part of a fault. It reports
// whether the request is finished; false means the handler runs next. No
// lock is held here: a Delay must never stall other requests.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, ex *exchange, f Fault) bool {
	if f.Delay > 0 {
		timer := time.NewTimer(f.Delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-r.Context().Done():
			return true // the client went away; nobody is left to answer
		}
	}
	if f.StreamCutAfter > 0 {
		ex.StreamFault = &f // the stream handler applies it
		return false
	}
	switch {
	case f.Drop:
		ex.Dropped = true
		dropConnection(w)
		return true
	case f.Status != 0:
		writeFault(ex.RB, ex.RequestID, f)
		ex.RB.Commit()
		return true
	}
	return false
}

// writeFault sends the injected status with its headers and either the
// verbatim Body or the API's JSON error body.
func writeFault(w http.ResponseWriter, requestID string, f Fault) {
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
		typ = errorTypeForStatus(f.Status)
	}
	msg := f.Message
	if msg == "" {
		msg = defaultFaultMessage(f.Status)
	}
	writeError(w, requestID, &apiError{Status: f.Status, Type: typ, Message: msg})
}

func defaultFaultMessage(status int) string {
	if status == 529 {
		return "Overloaded (injected fault)"
	}
	if text := http.StatusText(status); text != "" {
		return text + " (injected fault)"
	}
	return "Injected fault"
}

// dropConnection closes the client connection without a response. Where
// the connection cannot be hijacked (HTTP/2), aborting the handler has the
// same effect for the client.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}
