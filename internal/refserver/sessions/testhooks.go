package sessions

import "encoding/json"

// Test hooks: the server forwards its exported *ForTest methods here, for
// the black-box tests of package refserver. They read (or, for
// SetSessionStateForTest, set) state directly, without the turns that would
// produce it.

// SubscribersForTest reports how many streams are subscribed to a
// session's feed.
func (s *Service) SubscribersForTest(id string) int {
	s.mu.Lock()
	f := s.sessions.byID[id].eng.feed
	s.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// ThreadEventsForTest returns a child thread's own log (what a thread
// stream will show), oldest first.
func (s *Service) ThreadEventsForTest(sessionID, threadID string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, ev := range s.sessions.byID[sessionID].eng.threadByID[threadID].log {
		out = append(out, ev.view())
	}
	return out
}

// PrimaryThreadForTest returns the id of a session's primary thread.
func (s *Service) PrimaryThreadForTest(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions.byID[id].eng.primary.id
}

// SetSessionStateForTest sets a session's status and consumed list cost
// (USD minor units).
func (s *Service) SetSessionStateForTest(id, status string, listCost int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.sessions.byID[id]
	x.status, x.usage.listCost = status, listCost
	x.eng.acct.tokensNano = listCost * nanoPerCent // the exact cost behind it
}

// SessionEventsForTest returns a session's event log, oldest first.
func (s *Service) SessionEventsForTest(id string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, e := range s.sessions.byID[id].events {
		out = append(out, e.view())
	}
	return out
}

// PreviewQueue is what a stream's subscriber holds of the previews not yet
// taken by its connection.
type PreviewQueue struct {
	Previews int  // previews waiting
	Bytes    int  // their size
	Lagging  bool // its queue was full: new previews are shed until the queue empties
}

// PreviewQueuesForTest reports the preview queue of every stream
// subscribed to a session's feed, in no particular order.
func (s *Service) PreviewQueuesForTest(id string) []PreviewQueue {
	s.mu.Lock()
	f := s.sessions.byID[id].eng.feed
	s.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]PreviewQueue, 0, len(f.subs))
	for sub := range f.subs {
		out = append(out, PreviewQueue{Previews: len(sub.previews), Bytes: sub.pending, Lagging: sub.lagging})
	}
	return out
}

// MaxPendingPreviewBytes is the bound of a subscriber's preview
// queue, for tests that size their previews against it.
const MaxPendingPreviewBytes = maxPendingPreviewBytes
