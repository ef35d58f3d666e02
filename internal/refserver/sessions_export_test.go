package refserver

import "encoding/json"

// Test hooks for package refserver_test (the export_test.go pattern). They
// set state directly, without the turns that would produce it: a running
// or rescheduling status with no turn behind it, consumed list cost. (A
// terminated session comes from a Terminate step: sessionFixture.terminate.)

// SetSessionStateForTest sets a session's status and consumed list cost
// (USD minor units).
func (s *Server) SetSessionStateForTest(id, status string, listCost int64) {
	s.sessions.SetSessionStateForTest(id, status, listCost)
}

// SessionEventsForTest returns a session's event log, oldest first.
func (s *Server) SessionEventsForTest(id string) []json.RawMessage {
	return s.sessions.SessionEventsForTest(id)
}
