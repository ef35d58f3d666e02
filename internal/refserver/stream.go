package refserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"
)

// V3 Stream Events (docs/session-events-wire.md 2.3): a
// text/event-stream of the events recorded after the connection opened,
// plus previews when event_deltas asks for them.
//
// The handler runs on the connection's own goroutine and starts no other:
// it waits on the feed's wake channel, the request context (the client went
// away) and a keep-alive timer, so nothing outlives the connection.

const (
	defaultPingInterval = 15 * time.Second
	maxEventDeltas      = 100
	streamBatch         = 64 // frames taken from the feed at a time
)

var pingFrame = frame{typ: "ping", data: []byte(`{"type":"ping"}`)}

// parseEventDeltas reads event_deltas (repeatable, in both forms:
// event_deltas=a and event_deltas[]=a).
func parseEventDeltas(q map[string][]string) (uint8, error) {
	values := append(slices.Clone(q["event_deltas"]), q["event_deltas[]"]...)
	if len(values) > maxEventDeltas {
		return 0, invalidField("event_deltas", "must have at most %d items", maxEventDeltas)
	}
	var kinds uint8
	for _, v := range values {
		switch v {
		case "agent.message":
			kinds |= previewMessage
		case "agent.thinking":
			kinds |= previewThinking
		default:
			return 0, maOneOf("event_deltas", v, "agent.message", "agent.thinking")
		}
	}
	return kinds, nil
}

func (s *Server) streamEvents(c *call) error {
	kinds, err := parseEventDeltas(c.R.URL.Query())
	if err != nil {
		return err
	}
	s.mu.Lock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	f := x.eng.feed
	var sub *subscriber
	// An archived or terminated session can have no further event: 200,
	// then the body ends at once (docs/session-events-wire.md 2.3, choices (b)
	// and (c)).
	if !x.archived() && x.status != statusTerminated {
		// Registered before the headers go out: whatever is recorded once
		// the client has them is delivered.
		sub = f.subscribe(kinds)
	}
	s.mu.Unlock()
	if sub != nil {
		defer f.unsubscribe(sub)
	}

	h := c.W.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	c.W.WriteHeader(http.StatusOK)
	flush(c.W)
	if sub == nil {
		return nil
	}
	(&streamWriter{c: c, interval: s.cfg.pingInterval, cut: c.Ex.StreamFault}).pump(f, sub)
	return nil
}

func flush(w http.ResponseWriter) {
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// streamWriter writes one connection's frames.
type streamWriter struct {
	c        *call
	interval time.Duration
	cut      *Fault // Fault.StreamCutAfter applied to this stream, or nil
	written  int    // frames written, pings excluded
	buf      []byte
}

// pump delivers frames until the feed ends, the client goes away or a fault
// cuts the stream.
func (w *streamWriter) pump(f *feed, sub *subscriber) {
	ctx := w.c.R.Context()
	ping := time.NewTimer(w.interval)
	defer ping.Stop()
	batch := make([]frame, 0, streamBatch)
	for {
		frames, done, wake := f.take(sub, batch[:0])
		for _, fr := range frames {
			if !w.write(fr) || w.cutNow() {
				return
			}
		}
		if done {
			return
		}
		if len(frames) > 0 {
			ping.Reset(w.interval)
			continue
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return
		case <-ping.C:
			if !w.write(pingFrame) {
				return
			}
			w.written-- // pings do not count towards StreamCutAfter
			ping.Reset(w.interval)
		}
	}
}

// write sends one frame, exactly `event: <type>\ndata: <json>\n\n`, and
// flushes it. It reports false when the client is gone.
func (w *streamWriter) write(fr frame) bool {
	w.buf = appendFrame(w.buf[:0], fr)
	if _, err := w.c.W.Write(w.buf); err != nil {
		return false
	}
	flush(w.c.W)
	w.written++
	return true
}

func appendFrame(b []byte, fr frame) []byte {
	b = append(b, "event: "...)
	b = append(b, fr.typ...)
	b = append(b, "\ndata: "...)
	b = append(b, fr.data...)
	return append(b, "\n\n"...)
}

// cutNow applies a StreamCutAfter fault once its count is reached: with a
// Status, an error frame (the API's error body) and a clean end; without, the
// connection is dropped mid-stream. It reports whether the stream is over.
func (w *streamWriter) cutNow() bool {
	if w.cut == nil || w.written < w.cut.StreamCutAfter {
		return false
	}
	if w.cut.Status != 0 {
		typ := w.cut.ErrorType
		if typ == "" {
			typ = errorTypeForStatus(w.cut.Status)
		}
		msg := w.cut.Message
		if msg == "" {
			msg = defaultFaultMessage(w.cut.Status)
		}
		data, _ := json.Marshal(errorBody{Type: "error", Error: errorDetail{Type: typ, Message: msg}, RequestID: w.c.Ex.RequestID})
		w.c.Ex.ErrType = typ
		w.write(frame{typ: "error", data: data})
		return true
	}
	w.c.Ex.Dropped = true
	dropConnection(w.c.W)
	return true
}
