package refserver

import "github.com/agentplatform/agentplatform-go/internal/refserver/sessions"

// Read-only test hooks of the stream feed for package refserver_test
// (package sessions has them).

// PreviewQueue is what a stream's subscriber holds of the previews not yet
// taken by its connection.
type PreviewQueue = sessions.PreviewQueue

// PreviewQueuesForTest reports the preview queue of every stream
// subscribed to a session's feed, in no particular order.
func (s *Server) PreviewQueuesForTest(id string) []PreviewQueue {
	return s.sessions.PreviewQueuesForTest(id)
}

// MaxPendingPreviewBytesForTest is the bound of a subscriber's preview
// queue, for tests that size their previews against it.
const MaxPendingPreviewBytesForTest = sessions.MaxPendingPreviewBytes
