package sessions

import "sync"

// A session's feed: its event log as the streams see it, the streams
// subscribed to it, and the notification that wakes them.
//
// Why a lock of its own: the engine writes under the server's lock
// (Deps.Lock), and holds it for a whole turn (a Firehose can be long). Streams read under feed.mu only, so
// they deliver events while the turn is still running and never compete for
// that lock with other requests. Writers take Deps.Lock then feed.mu; the
// session's log (session.events) is appended under both, so it may be read
// under either.
//
// Why a cursor rather than a queue: persisted events are already in the log,
// so a subscriber keeps only its index into it. Previews are not persisted;
// each subscriber that asked for their kind gets its own copy, stamped with
// the log length at the time it was produced, so it is delivered between the
// right two log entries.
//
// Why memory stays bounded: previews exist only for subscribers connected
// when they are produced, and at most maxPendingPreviewBytes of them wait
// per subscriber. The producer never waits for a subscriber: it runs under
// Deps.Lock, so a wait for one client that stopped reading would stall every
// other request. A subscriber whose queue has no room is marked lagging: its
// new previews are shed until it has taken all it holds (best effort, as
// docs/session-events-wire.md section 5 allows: what is delivered of an
// event is still a prefix). A reader that keeps up never comes near the
// bound and loses nothing. Persisted events are never shed: they are read
// from the log.

const (
	previewMessage  uint8 = 1 << iota // event_deltas=agent.message
	previewThinking                   // event_deltas=agent.thinking
)

// maxPendingPreviewBytes bounds the previews waiting for one subscriber.
const maxPendingPreviewBytes = 8 << 20

type feed struct {
	mu      sync.Mutex
	log     *[]*sessionEvent // the session's events, or a child thread's own log
	subs    map[*subscriber]struct{}
	wanted  [2]int        // subscribers per preview kind (message, thinking)
	wake    chan struct{} // closed and replaced when something is appended
	waiting bool          // a subscriber holds the current wake channel

	closed   bool
	closedAt int           // len(log) when closed: nothing after it is delivered
	final    *sessionEvent // sent after the log when closed (session.deleted)
}

type subscriber struct {
	kinds    uint8
	next     int // index of the next log entry to deliver
	previews []preview
	pending  int  // bytes of previews
	lagging  bool // its queue was full: previews are shed until it has taken them all
}

// preview is a stream-only frame, delivered after log entry at-1.
type preview struct {
	at   int
	typ  string // event_start or event_delta
	data []byte
}

// frame is one SSE event to write.
type frame struct {
	typ  string
	data []byte
}

// newFeed returns the feed of log: a session's events (the session
// stream, which is also its primary thread's) or a child thread's own log
// (that thread's stream). Both streams are served by the same code.
func newFeed(log *[]*sessionEvent) *feed {
	return &feed{log: log, subs: map[*subscriber]struct{}{}, wake: make(chan struct{})}
}

func kindIndex(kind uint8) int {
	if kind == previewThinking {
		return 1
	}
	return 0
}

// subscribe registers a stream that receives what is appended from now on.
func (f *feed) subscribe(kinds uint8) *subscriber {
	f.mu.Lock()
	defer f.mu.Unlock()
	sub := &subscriber{kinds: kinds, next: len(*f.log)}
	f.subs[sub] = struct{}{}
	for _, k := range []uint8{previewMessage, previewThinking} {
		if kinds&k != 0 {
			f.wanted[kindIndex(k)]++
		}
	}
	return sub
}

func (f *feed) unsubscribe(sub *subscriber) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.subs[sub]; !ok {
		return
	}
	delete(f.subs, sub)
	for _, k := range []uint8{previewMessage, previewThinking} {
		if sub.kinds&k != 0 {
			f.wanted[kindIndex(k)]--
		}
	}
	sub.previews, sub.pending = nil, 0
}

// wants reports whether any subscriber asked for previews of kind, so that
// the engine builds preview frames only when someone will get them.
func (f *feed) wants(kind uint8) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wanted[kindIndex(kind)] > 0
}

// notifyLocked wakes every waiting subscriber.
func (f *feed) notifyLocked() {
	if f.waiting {
		close(f.wake)
		f.wake = make(chan struct{})
		f.waiting = false
	}
}

// append adds ev to the feed's log.
func (f *feed) append(ev *sessionEvent) {
	f.mu.Lock()
	*f.log = append(*f.log, ev)
	f.notifyLocked()
	f.mu.Unlock()
}

// publish hands the previews of one event (its event_start first) to the
// subscribers that asked for kind. It never waits: a subscriber without room
// for all of them gets a prefix (possibly none) and lags from then on.
func (f *feed) publish(kind uint8, frames []preview) {
	f.mu.Lock()
	defer f.mu.Unlock()
	at := len(*f.log)
	for sub := range f.subs {
		if sub.kinds&kind == 0 || sub.lagging {
			continue
		}
		for _, p := range frames {
			if sub.pending+len(p.data) > maxPendingPreviewBytes {
				sub.lagging = true
				break
			}
			p.at = at
			sub.previews = append(sub.previews, p)
			sub.pending += len(p.data)
		}
	}
	f.notifyLocked()
}

// close ends every stream after what was appended so far (and final, when
// set).
func (f *feed) close(final *sessionEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.closed, f.closedAt, f.final = true, len(*f.log), final
	f.waiting = true // wake everyone, waiting or not
	f.notifyLocked()
}

// take moves up to cap(dst)-len(dst) frames for sub into dst, in delivery
// order. With nothing to deliver it returns either done (the feed is closed
// and drained; final was included) or the channel to wait on.
func (f *feed) take(sub *subscriber, dst []frame) ([]frame, bool, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	log := *f.log
	limit := len(log)
	if f.closed {
		limit = min(limit, f.closedAt)
	}
	for len(dst) < cap(dst) {
		if len(sub.previews) > 0 && sub.previews[0].at <= sub.next {
			p := sub.previews[0]
			sub.previews = sub.previews[1:]
			sub.pending -= len(p.data)
			dst = append(dst, frame{typ: p.typ, data: p.data})
			continue
		}
		if sub.next < limit {
			ev := log[sub.next]
			sub.next++
			dst = append(dst, frame{typ: ev.typ, data: ev.raw})
			continue
		}
		break
	}
	if len(sub.previews) == 0 {
		sub.previews = nil // let the backing array go
		sub.lagging = false
	}
	if len(dst) > 0 {
		return dst, false, nil
	}
	if f.closed {
		if f.final != nil {
			dst = append(dst, frame{typ: f.final.typ, data: f.final.raw})
		}
		return dst, true, nil
	}
	f.waiting = true
	return dst, false, f.wake
}
