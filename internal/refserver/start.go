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

// Connection timeouts of a started server, which anyone may reach: a
// client that sends a body slowly, or keeps a connection open without a
// request, is cut off instead of holding it forever. readTimeout covers a
// whole request, headers and body (up to the 32 MiB body limit over a slow
// link); responses, event streams included, are not bounded by it.
// Variables only so that a test can shorten them.
var (
	readTimeout = 2 * time.Minute
	idleTimeout = 2 * time.Minute
)

// Start serves the server on addr (for example "127.0.0.1:0") in a
// goroutine and returns its base URL. stop shuts it down gracefully and
// returns once the serving goroutine has ended, so no goroutine outlives it,
// and then closes the server (Close: the stored files go);
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
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
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
		if closeErr := s.Close(); err == nil {
			err = closeErr
		}
		return err
	})
	return "http://" + ln.Addr().String(), stop, nil
}
