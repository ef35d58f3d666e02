package refserver

// Read-only test hooks of the stream feed for package refserver_test.

// PreviewQueue is what a stream's subscriber holds of the previews not yet
// taken by its connection.
type PreviewQueue struct {
	Previews int  // previews waiting
	Bytes    int  // their size
	Lagging  bool // its queue was full: new previews are shed until the queue empties
}

// PreviewQueuesForTest reports the preview queue of every stream
// subscribed to a session's feed, in no particular order.
func (s *Server) PreviewQueuesForTest(id string) []PreviewQueue {
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

// MaxPendingPreviewBytesForTest is the bound of a subscriber's preview
// queue, for tests that size their previews against it.
const MaxPendingPreviewBytesForTest = maxPendingPreviewBytes
