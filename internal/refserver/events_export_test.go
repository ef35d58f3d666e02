package refserver

import "encoding/json"

// Test hooks of the session engine for package refserver_test.

// SubscribersForTest reports how many streams are subscribed to a
// session's feed.
func (s *Server) SubscribersForTest(id string) int {
	s.mu.Lock()
	f := s.sessions.byID[id].eng.feed
	s.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// ThreadEventsForTest returns a child thread's own log (what a thread
// stream will show), oldest first.
func (s *Server) ThreadEventsForTest(sessionID, threadID string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, ev := range s.sessions.byID[sessionID].eng.threadByID[threadID].log {
		out = append(out, ev.view())
	}
	return out
}

// PrimaryThreadForTest returns the id of a session's primary thread.
func (s *Server) PrimaryThreadForTest(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions.byID[id].eng.primary.id
}
