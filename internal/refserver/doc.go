// Package refserver is the reference server: the Agent Platform HTTP API
// (SPEC.md) implemented in process over in-memory state, with the choices
// of docs/api-choices.md wherever SPEC says "not shown". The SDK's tests
// run against it over real HTTP; nothing in the SDK is mocked.
//
// # Using it in a test
//
//	srv := refserver.New(refserver.WithClock(clock), refserver.WithIDs(refserver.SequentialIDs()))
//	ts := httptest.NewServer(srv)
//	defer ts.Close()
//	seed := srv.Seed() // organization, default workspace, owner, owner's key
//
// The seeded key is an unscoped personal key, so requests must send
// vendor-workspace-id (SPEC 5.2 rule 2); seed.DefaultWorkspaceID is where
// it has API access. A test shapes the organization directly, without
// HTTP: CreateWorkspace, CreateUser, GrantAPIAccess, CreateServiceAccount,
// CreateAPIKey (each key kind, scope and expiry), SetAPIKeyStatus, and the
// removals that make keys stop working.
//
// For reliability tests, InjectFault makes matching requests answer a
// status (with headers such as retry-after, or an HTML body as a proxy
// would send), wait, drop the connection, or run and then drop it.
// Requests returns what the server received, credentials redacted.
// Start serves on a real address for programs outside the test binary
// (see internal/cmd/refserver).
//
// # How a request is handled
//
// Every request gets a request id (the request-id header, on errors and
// faults too), is recorded in the request log, and meets the pending
// faults. A known route then runs its chain: authentication, workspace
// selection (SPEC 5.2), the admin-API rule, vendor-version, vendor-beta
// (with the route's required value), idempotency, and the handler.
// Responses are buffered until the handler returns (see responseBuffer);
// every error is the SPEC 7 body.
//
// # Adding an endpoint
//
// An endpoint family is one file: a routes method returning its route
// table (method, path pattern, required beta values, handler) added to
// Server.routes, handlers of the form func(*call) error, and the stored
// and wire forms of its objects. Shared helpers do the rest: decodeStrict
// and optional for bodies, checkLength and the query readers for rules,
// paginateByID and paginateByCursor for lists, apiError constructors for
// failures. Non-admin objects belong to call.workspaceID.
//
// # Session events and the scripted agent
//
// Send, List and Stream Events follow docs/session-events-wire.md. The
// server has no model: a session's agent is scripted. A turn runs inside the
// request that starts it (Send Events, Create Session's initial_events, a
// deployment run) until it ends or waits — for a tool call's answer, a
// Hold, or a budget stop — and the request that supplies what it waits for
// continues it, so a test gets the same events every time.
//
//	srv.ScriptSession(sessionID, []refserver.Step{
//		refserver.Think("Looking the order up."),
//		refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
//		refserver.SayChunks("Order 1234 ", "shipped yesterday."),
//	})
//
// Each user.message or user.define_outcome that starts a turn takes the
// next queued turn; ScriptAgent queues turns for every new session of an
// agent (deployment runs included). Steps: Say, SayChunks, Think, UseTool,
// UseMCPTool, UseCustomTool, Refuse, Hold (until ReleaseSession or an
// interrupt), Spawn (a coordinator's child thread), Emit (any event type),
// Firehose (load tests), and the errors of contract 6.6: Fail (retries
// exhausted: the turn ends), Reschedule (a transient error the server
// retries at once: session.status_rescheduled, session.status_running, and
// the turn goes on) and Terminate (unrecoverable: session.status_terminated,
// and the session accepts no write again); options Verdict, ToolOutput,
// Tokens and Outcome. Consecutive agent steps up to and including a tool
// call form one model request; an error step fails the request it is in.
// With nothing queued, the agent answers "You said: T" after thinking, and
// on a session's first turn calls the agent's first custom tool instead, if
// it has one (script.go has the details, the default token counts
// included). The statuses rescheduling and terminated come only from these
// steps (rescheduling lasts no time: the retry starts in the same request).
//
// Streams are woken by their session's feed (stream_feed.go), ping after
// WithPingInterval of silence, and end with the session (deleted, archived,
// or right after session.status_terminated; a new stream of an archived or
// terminated session ends at once). Fault.StreamCutAfter cuts a stream
// after n events, or ends it with an error frame when the fault has a
// Status.
package refserver
