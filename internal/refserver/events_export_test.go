package refserver

import "encoding/json"

// Test hooks of the session engine for package refserver_test (package
// sessions has them).

// SubscribersForTest reports how many streams are subscribed to a
// session's feed.
func (s *Server) SubscribersForTest(id string) int { return s.sessions.SubscribersForTest(id) }

// ThreadEventsForTest returns a child thread's own log (what a thread
// stream will show), oldest first.
func (s *Server) ThreadEventsForTest(sessionID, threadID string) []json.RawMessage {
	return s.sessions.ThreadEventsForTest(sessionID, threadID)
}

// PrimaryThreadForTest returns the id of a session's primary thread.
func (s *Server) PrimaryThreadForTest(id string) string { return s.sessions.PrimaryThreadForTest(id) }
