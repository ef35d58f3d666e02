// Package reftest starts the reference server over real HTTP for the SDK's
// own tests and benchmarks, and builds clients pointed at it.
package reftest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/option"
)

// Env is a running reference server.
type Env struct {
	Server *refserver.Server
	HTTP   *httptest.Server
	URL    string
	Seed   refserver.Seed
}

// New starts a reference server that stops when the test ends.
func New(tb testing.TB, opts ...refserver.Option) *Env {
	tb.Helper()
	srv := refserver.New(opts...)
	// Cleanups run last first: the HTTP server stops, then the reference
	// server removes the files it stored.
	tb.Cleanup(func() { _ = srv.Close() })
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return &Env{Server: srv, HTTP: ts, URL: ts.URL, Seed: srv.Seed()}
}

// Client returns a client for the server, authenticated with the seeded
// owner's key in the default workspace, with fast retries, then opts. It is
// closed when the test ends.
func (e *Env) Client(tb testing.TB, opts ...option.Option) *agentplatform.Client {
	tb.Helper()
	base := []option.Option{
		option.WithBaseURL(e.URL),
		option.WithAPIKey(e.Seed.APIKey),
		option.WithWorkspaceID(e.Seed.DefaultWorkspaceID),
		option.WithMaxRetryWait(FastRetryWait),
	}
	c, err := agentplatform.NewClient(append(base, opts...)...)
	if err != nil {
		tb.Fatalf("NewClient: %v", err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

// PutFiles stores a small text file under each of ids in the default
// workspace, for tests that attach file resources by fixed ids: a session's
// or deployment's file resource must name an existing file of the
// workspace.
func (e *Env) PutFiles(tb testing.TB, ids ...string) {
	tb.Helper()
	for _, id := range ids {
		if err := e.Server.PutFileWithID(e.Seed.DefaultWorkspaceID, id, "fixture.txt", "", strings.NewReader("content of "+id)); err != nil {
			tb.Fatalf("PutFileWithID(%s): %v", id, err)
		}
	}
}

// FastRetryWait caps retry waits in tests so that a retry costs milliseconds.
const FastRetryWait = 5 * time.Millisecond

// Count returns how many recorded requests have the method and path.
func (e *Env) Count(method, path string) int {
	n := 0
	for _, r := range e.Server.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// FreshConnections sends every attempt on a new connection. Tests of dropped
// connections need it: on a reused keep-alive connection net/http itself
// replays an idempotent request (a GET, or a POST with an Idempotency-Key)
// that failed before any response, which would hide the SDK's own retries.
func FreshConnections() option.Option {
	return option.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}})
}
