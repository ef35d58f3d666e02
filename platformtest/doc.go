// Package platformtest runs the Agent Platform API in your test's process,
// for testing code that uses this SDK, as net/http/httptest does for
// net/http: a real server on a loopback address, and a client for it.
// Nothing in the SDK or in your code is mocked; your code makes the same
// calls it makes in production.
//
// The server is the SDK's reference implementation of the whole API, over
// in-memory state, with what a test needs on top: an agent whose actions
// the test scripts, injected faults, a clock the test moves, and a log of
// the requests it received.
//
//	func TestSupportBot(t *testing.T) {
//		srv, client := platformtest.New(t, platformtest.WithStartTime(
//			time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)))
//		ctx := t.Context()
//		bot := supportbot.New(client) // your code, given the client
//		agent, err := bot.Setup(ctx)  // creates its environment and agent
//		require.NoError(t, err)
//
//		// Every session of the agent: its first turn looks the order up,
//		// then answers.
//		err = srv.ScriptAgent(agent.ID, []platformtest.Step{
//			platformtest.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
//			platformtest.Say("Order 1234 shipped yesterday."),
//		})
//		require.NoError(t, err)
//
//		// The API fails twice; the SDK retries.
//		srv.InjectFault(platformtest.Fault{Method: "POST", Path: "/v1/sessions", Status: 529, Times: 2})
//
//		reply, err := bot.Ask(ctx, "Where is order 1234?")
//		require.NoError(t, err)
//		require.Equal(t, "Order 1234 shipped yesterday.", reply)
//	}
//
// New returns a server and a client, both closed when the test ends.
// NewServer starts a server alone (Close it); Server.Client builds more
// clients, with options of their own.
//
// # The scripted agent
//
// The server has no model. ScriptSession queues turns for one session,
// ScriptAgent for every new session of an agent (deployment runs
// included); each turn is a list of Steps: Say, SayChunks, Think, the tool
// calls UseTool, UseMCPTool and UseCustomTool, the failures Refuse, Fail,
// Reschedule and Terminate, Hold, Spawn and Emit. A turn runs inside the
// request that starts it, until it ends or waits for the application (a
// custom tool's result, a tool confirmation), so a test sees the same
// events every time. With no turn queued, the agent calls its first custom
// tool on a session's first turn, if it has one, and otherwise answers
// "You said: <message>".
//
// # Faults
//
// InjectFault makes matching requests answer an error status (with
// retry-after and similar headers, or an HTML body), wait, drop the
// connection before or after handling the request, or cut an event stream
// after some events. The clients from Server.Client cap retry waits at a
// few milliseconds, so retries cost a test almost nothing. Requests lists
// what the server received, every retry included, with credentials
// redacted.
//
// # Time
//
// The server's clock reads the real time and moves only forward. Advance
// moves it on and has the server do what fell due: scheduled deployments
// fire, tokens expire. WithStartTime starts it at a fixed time and keeps it
// still between Advance calls, and makes ids sequential, so that
// responses are the same on every run.
//
// # Files
//
// Uploads are streamed to a temporary directory that Close removes, up to
// 500 MB a file unless WithMaxFileSize says otherwise. Uploaded files are
// not downloadable, as on the platform; PutFile creates a file as the
// platform would (a code-execution output), which is.
//
// # Skills
//
// Skills uploads are held in memory, up to the platform's 8 MiB a version,
// and checked as the platform checks them (docs/skills-wire.md). The
// scripted agent's default reply names the custom skills of its session's
// agent — "You said: T (skills: release-notes)" — so that a test can check
// that the skills it uploaded reached the session.
//
// # Self-hosted environments
//
// EnvironmentKey mints the key a self-hosted environment's workers use
// for its work queue and its sessions, as the platform's console issues
// them (docs/environment-work-wire.md).
//
// # Workload identity federation
//
// AddFederation sets up what an administrator and a workload's platform
// provide (an identity provider, a service account and a federation
// rule), so that code authenticating with auth.Federation can be tested
// without an API key: Federation.Config is a ready configuration, and
// Federation.IdentityToken mints the workload's identity tokens.
//
// # Tracing
//
// WithSpanExporter collects the server's spans, which share their traces
// with the spans of the SDK: a test can check its own instrumentation end
// to end with go.opentelemetry.io/otel/sdk/trace/tracetest.
//
// The server implements the API as the platform documents it;
// docs/api-choices.md records its choices where that documentation is
// silent. It is for tests: its state lives in memory and is lost on Close.
package platformtest
