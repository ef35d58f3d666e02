package refserver

// FillMessageBatch creates, in workspaceID, a message batch of n requests
// (at most 100,000) that has already ended, every request succeeded with
// the fake model's answer to text: a large batch at once, for tests of
// reading many results, without processing each request on the clock.
// The custom ids are r0, r1, …. It returns the batch's id.
func (s *Server) FillMessageBatch(workspaceID string, n int, text string) (string, error) {
	return s.msgs.FillBatch(workspaceID, n, text, s.deps.Now())
}
