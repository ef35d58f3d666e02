package refserver

// Test hooks of the fake model for package refserver_test.

// ClockWaitForTest reports whether a delay directive has started waiting
// on the server's ManualClock since the clock last moved: its deadline is
// set, and the next Advance wakes it.
func (s *Server) ClockWaitForTest() bool {
	return s.msgs.ClockWaiting()
}
