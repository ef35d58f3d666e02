package refserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// shutdownGrace bounds how long stop waits for in-flight requests (a slow
// fault, an open stream) before closing their connections. A variable only
// so that a test can lengthen it (start_export_test.go).
var shutdownGrace = 5 * time.Second

// Start serves the server on addr (for example "127.0.0.1:0") in a
// goroutine and returns its base URL. stop shuts it down gracefully and
// returns once the serving goroutine has ended, so no goroutine outlives it;
// calling it again returns the first result.
func (s *Server) Start(addr string) (baseURL string, stop func() error, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	// Every request's context derives from base, which stop cancels first:
	// event streams never end on their own, and Shutdown would otherwise wait
	// out its grace period for them.
	base, cancelBase := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	stopTicking := s.tickEverySecond()

	stop = sync.OnceValue(func() error {
		stopTicking()
		cancelBase()
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		err := srv.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = srv.Close()
		}
		if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) && err == nil {
			err = serveErr
		}
		return err
	})
	return "http://" + ln.Addr().String(), stop, nil
}
