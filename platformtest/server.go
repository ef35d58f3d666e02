package platformtest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/option"
)

// Server is a reference server running on a loopback address: the whole
// API, over in-memory state, in the test's process. Its methods are safe
// for concurrent use.
type Server struct {
	rs    *refserver.Server
	clock *refserver.ManualClock
	url   string
	seed  refserver.Seed

	close func() // stops the server and the clock's ticker; once
}

// fastRetryWait caps the retry waits of the clients Client builds, retry-after
// included, so that a test of retries takes milliseconds, not seconds.
const fastRetryWait = 5 * time.Millisecond

// NewServer starts a server on a loopback address, seeded with an
// organization, its default workspace and an owner whose key (APIKey) has
// API access there. Close it when done, as with httptest.NewServer.
func NewServer(opts ...Option) (*Server, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	var rsOpts []refserver.Option
	var clock *refserver.ManualClock
	if cfg.start.IsZero() {
		clock = refserver.NewRunningClock(time.Now())
	} else {
		clock = refserver.NewManualClock(cfg.start)
		rsOpts = append(rsOpts, refserver.WithIDs(refserver.SequentialIDs()))
	}
	rsOpts = append(rsOpts, refserver.WithClock(clock))
	if cfg.spanExporter != nil {
		rsOpts = append(rsOpts, refserver.WithSpanExporter(cfg.spanExporter))
	}
	if cfg.maxFileSize > 0 {
		rsOpts = append(rsOpts, refserver.WithMaxFileSize(cfg.maxFileSize))
	}
	rs := refserver.New(rsOpts...)

	url, stop, err := rs.Start("127.0.0.1:0")
	if err != nil {
		// Like httptest: a machine without IPv4 loopback may have IPv6.
		var err6 error
		if url, stop, err6 = rs.Start("[::1]:0"); err6 != nil {
			return nil, fmt.Errorf("platformtest: listening on loopback: %w", err)
		}
	}
	return &Server{
		rs:    rs,
		clock: clock,
		url:   url,
		seed:  rs.Seed(),
		close: sync.OnceFunc(func() {
			_ = stop() // it reports only a failure to close the listener; it also stops the server's ticking
		}),
	}, nil
}

// New starts a server and returns it with a client for it (see
// Server.Client). Both are closed when the test and its subtests end. It
// is the usual way to start a server in a test; a failure to start it
// fails the test at once.
func New(tb testing.TB, opts ...Option) (*Server, *agentplatform.Client) {
	tb.Helper()
	s, err := NewServer(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	c, err := s.Client()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = c.Close() }) // runs before s.Close
	return s, c
}

// URL returns the server's base URL, http://127.0.0.1:<port>, for
// option.WithBaseURL or VENDOR_BASE_URL.
func (s *Server) URL() string { return s.url }

// APIKey returns the secret of the seeded owner's key. It is a personal key
// not scoped to a workspace, so requests made with it must name one
// (option.WithWorkspaceID, VENDOR_WORKSPACE_ID); it has API access in
// WorkspaceID.
func (s *Server) APIKey() string { return s.seed.APIKey }

// WorkspaceID returns the id of the organization's default workspace,
// where APIKey has API access.
func (s *Server) WorkspaceID() string { return s.seed.DefaultWorkspaceID }

// Client returns a client for the server: its URL, APIKey and WorkspaceID,
// and retry waits capped at a few milliseconds so that a test of retries is
// fast; then opts, which may override any of these. They override the
// VENDOR_* environment variables too, so a test never reaches a real
// account by accident. Close the client when done.
func (s *Server) Client(opts ...option.Option) (*agentplatform.Client, error) {
	base := []option.Option{
		option.WithBaseURL(s.url),
		option.WithAPIKey(s.seed.APIKey),
		option.WithWorkspaceID(s.seed.DefaultWorkspaceID),
		option.WithMaxRetryWait(fastRetryWait),
	}
	return agentplatform.NewClient(append(base, opts...)...)
}

// Close shuts the server down: it stops accepting connections, ends open
// event streams, and returns once every request in flight has ended (a
// request still running after a few seconds has its connection closed). No
// goroutine of the server outlives it. Calling it again does nothing.
func (s *Server) Close() { s.close() }
