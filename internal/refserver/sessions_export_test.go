package refserver

import "encoding/json"

// Test hooks for package refserver_test (the export_test.go pattern). They
// set state that only the session engine (next issue) will produce: a
// running or terminated session, consumed list cost.

// SetSessionStateForTest sets a session's status and consumed list cost
// (USD minor units).
func (s *Server) SetSessionStateForTest(id, status string, listCost int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.sessions.byID[id]
	x.status, x.usage.listCost = status, listCost
}

// SessionEventsForTest returns a session's event log, oldest first.
func (s *Server) SessionEventsForTest(id string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, e := range s.sessions.byID[id].events {
		out = append(out, e.view())
	}
	return out
}
