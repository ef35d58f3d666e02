// Package exampleenv gives the examples a platform to talk to: the real API
// when VENDOR_API_KEY is set, otherwise the SDK's reference server, started
// in this process, so that every example runs with no account and no
// network.
//
//	env, err := exampleenv.Start()
//	if err != nil { … }
//	defer env.Close()
//	client, err := agentplatform.NewClient(env.ClientOptions()...)
//
// Against the real API the client reads VENDOR_API_KEY, VENDOR_BASE_URL and
// VENDOR_WORKSPACE_ID itself. The embedded server runs on a manual clock,
// which only AdvanceClock moves, and its agents can be scripted
// (ScriptAgent), since it has no model to decide what they do.
//
// This package is the examples' plumbing, not part of the SDK.
package exampleenv

import (
	"cmp"
	"fmt"
	"net/http/httptest"
	"os"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/option"
)

// Env is the platform an example talks to.
type Env struct {
	// Server is the embedded reference server, for what only a test server
	// can do (register a federation issuer, say); nil against the real API.
	Server *refserver.Server

	ts    *httptest.Server
	clock *refserver.ManualClock
}

// Start connects to the real API when VENDOR_API_KEY is set, else starts the
// reference server in process, configured by opts (ignored for the real
// API). It prints one line saying which.
func Start(opts ...refserver.Option) (*Env, error) {
	if os.Getenv("VENDOR_API_KEY") != "" {
		e := &Env{}
		fmt.Printf("Target: the API at %s (VENDOR_API_KEY is set)\n", e.BaseURL())
		return e, nil
	}
	// Whole seconds make the clock's times read well.
	clock := refserver.NewManualClock(time.Now().UTC().Truncate(time.Second))
	srv := refserver.New(append([]refserver.Option{refserver.WithClock(clock)}, opts...)...)
	ts := httptest.NewServer(srv)
	fmt.Printf("Target: the embedded reference server at %s (set VENDOR_API_KEY to use the real API)\n", ts.URL)
	return &Env{Server: srv, ts: ts, clock: clock}, nil
}

// Embedded reports whether the example talks to the embedded server.
func (e *Env) Embedded() bool { return e.Server != nil }

// ClientOptions returns the options agentplatform.NewClient needs: the
// embedded server's address, its seeded API key and default workspace; none
// for the real API, where the client reads its environment variables.
func (e *Env) ClientOptions() []option.Option {
	if !e.Embedded() {
		return nil
	}
	seed := e.Server.Seed()
	return []option.Option{
		option.WithBaseURL(e.ts.URL),
		option.WithAPIKey(seed.APIKey),
		option.WithWorkspaceID(seed.DefaultWorkspaceID),
	}
}

// BaseURL returns the API's address: the embedded server's, or
// VENDOR_BASE_URL, else https://api.vendor.com.
func (e *Env) BaseURL() string {
	if !e.Embedded() {
		return cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com")
	}
	return e.ts.URL
}

// Now returns the platform's time: the embedded server's clock, or the
// system's.
func (e *Env) Now() time.Time {
	if !e.Embedded() {
		return time.Now()
	}
	return e.clock.Now()
}

// AdvanceClock moves the embedded server's clock forward by d; the server
// does what fell due meanwhile (scheduled deployments fire) before it
// returns. Against the real API time cannot be moved, and it reports false.
func (e *Env) AdvanceClock(d time.Duration) bool {
	if !e.Embedded() {
		return false
	}
	e.clock.Advance(d)
	return true
}

// ScriptAgent queues what the embedded server's agent does in the turns of
// the agent's sessions created from now on, as a model would decide it. It
// does nothing against the real API, where the model decides.
func (e *Env) ScriptAgent(agentID string, turns ...[]refserver.Step) error {
	if !e.Embedded() {
		return nil
	}
	return e.Server.ScriptAgent(agentID, turns...)
}

// Close stops the embedded server.
func (e *Env) Close() {
	if e.ts != nil {
		e.ts.Close()
	}
}
