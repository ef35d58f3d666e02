package refserver

import (
	"net/http"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// Fault makes matching requests fail or slow down, for reliability tests
// (kit.Fault has the fields).
type Fault = kit.Fault

// InjectFault adds a fault. Faults are checked in the order added; the first
// that matches a request is applied to it and used up once.
func (s *Server) InjectFault(f Fault) { s.faults.Add(f) }

// PendingFaults returns the faults not used up yet, in the order they
// apply, each with Times set to the uses it has left: how a test tells how
// many of the faults it injected met a request.
func (s *Server) PendingFaults() []Fault { return s.faults.Pending() }

// ClearFaults removes every pending fault.
func (s *Server) ClearFaults() { s.faults.Clear() }

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
		return (path == messages.PathMessages || path == messages.PathChatCompletions) && messages.BodyStreams(body)
	}
	return false
}

// applyFault carries out the pre-handler part of a fault. It reports
// whether the request is finished; false means the handler runs next. No
// lock is held here: a Delay must never stall other requests.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, ex *kit.Exchange, f Fault) bool {
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
		kit.DropConnection(w)
		return true
	case f.Status != 0:
		kit.WriteFault(ex.RB, ex.RequestID, f)
		ex.RB.Commit()
		return true
	}
	return false
}
