package refserver

// WorkPollsWaitingForTest is how many work long polls are waiting, so that
// a test can make work arrive while one waits (no sleeps).
func (s *Server) WorkPollsWaitingForTest() int { return s.work.PollsWaiting() }
