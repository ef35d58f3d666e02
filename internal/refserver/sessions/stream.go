package sessions

import (
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
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

// parseEventDeltas reads event_deltas (repeatable, in both forms:
// event_deltas=a and event_deltas[]=a).
func parseEventDeltas(q map[string][]string) (uint8, error) {
	values := append(slices.Clone(q["event_deltas"]), q["event_deltas[]"]...)
	if len(values) > maxEventDeltas {
		return 0, kit.InvalidField("event_deltas", "must have at most %d items", maxEventDeltas)
	}
	var kinds uint8
	for _, v := range values {
		switch v {
		case "agent.message":
			kinds |= previewMessage
		case "agent.thinking":
			kinds |= previewThinking
		default:
			return 0, kit.OneOf("event_deltas", v, "agent.message", "agent.thinking")
		}
	}
	return kinds, nil
}

func (s *Service) streamEvents(c *kit.Call) error {
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
	return s.serveStream(c, f, sub)
}

// serveStream writes the stream's headers, then what sub takes from f until
// the stream ends; a nil sub (nothing can follow) ends the body at once.
// The session stream and a thread's stream both end here.
func (s *Service) serveStream(c *kit.Call, f *feed, sub *subscriber) error {
	if sub != nil {
		defer f.unsubscribe(sub)
	}

	h := c.W.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	c.W.WriteHeader(http.StatusOK)
	kit.Flush(c.W)
	if sub == nil {
		return nil
	}
	w := kit.NewStreamWriter(c, s.cfg.pingInterval)
	defer w.Finish()
	pump(w, f, sub)
	return nil
}

// pump delivers frames until the feed ends, the client goes away or a fault
// cuts the stream.
func pump(w *kit.StreamWriter, f *feed, sub *subscriber) {
	ctx := w.C.R.Context()
	ping := time.NewTimer(w.Interval)
	defer ping.Stop()
	batch := make([]frame, 0, streamBatch)
	for {
		frames, done, wake := f.take(sub, batch[:0])
		for _, fr := range frames {
			if !w.Write(kit.Frame{Type: fr.typ, Data: fr.data}) || w.CutNow() {
				return
			}
		}
		if done {
			return
		}
		if len(frames) > 0 {
			ping.Reset(w.Interval)
			continue
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return
		case <-ping.C:
			if !w.Write(kit.PingFrame) {
				return
			}
			w.Written-- // pings do not count towards StreamCutAfter
			ping.Reset(w.Interval)
		}
	}
}
