package refserver

import (
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// HoldRouteForTest adds a POST route at path whose handler closes entered
// and then waits until release is called, so that a test can send a
// second request while the first is still in flight (no sleeps). Release
// is safe to call more than once; the test should also call it in a
// cleanup, so that a failed check does not leave the handler waiting.
func (s *Server) HoldRouteForTest(path string) (entered <-chan struct{}, release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	s.handle(kit.Route{Method: "POST", Path: path, Handle: func(c *kit.Call) error {
		close(in)
		<-out
		return c.OK(map[string]string{"done": "yes"})
	}})
	return in, sync.OnceFunc(func() { close(out) })
}
