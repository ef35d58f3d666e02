// Package refserver is the reference server: the Agent Platform HTTP API
// implemented in process over in-memory state, following docs/api-choices.md
// and the wire contracts docs/*-wire.md. The SDK's tests
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
// vendor-workspace-id on every request; seed.DefaultWorkspaceID is where
// it has API access. A test shapes the organization directly, without
// HTTP: CreateWorkspace, CreateUser, GrantAPIAccess, CreateServiceAccount,
// CreateAPIKey (each key kind, scope and expiry), SetAPIKeyStatus, and the
// removals that make keys stop working.
//
// Authentication beyond API keys follows docs/auth-wire.md. Workload
// identity federation: AddFederationIssuer (inline JWKS, a JWKS URL, or
// OIDC discovery) and AddFederationRule configure what POST /v1/oauth/token
// accepts; ArchiveFederationRule, ArchiveFederationIssuer and
// SetFederationIssuerJWKS change it. Device attestation: AddAppIntegration
// and RevokeAppIntegration; the verifier checks the vendor-test-v1 proofs
// (TestAttestationVerifier). Every refused exchange
// is the same opaque 401; ExchangeDenials tells a test why (reasons:
// organization_mismatch, rule_not_found, rule_archived, issuer_not_found,
// issuer_archived, jwt_malformed, jwt_algorithm, jwt_crit,
// jwt_kid_missing, jwt_kid_unknown, jwks_fetch_failed, jwt_key_mismatch,
// jwt_key_too_small, jwt_signature, jwt_issuer, jwt_subject, jwt_audience,
// jwt_exp_missing, jwt_expired, jwt_iat_missing, jwt_issued_in_future,
// jwt_nbf_invalid, jwt_not_yet_valid, jwt_lifetime_too_long,
// jwt_jti_invalid, jti_reused, match_subject_prefix, match_audience,
// match_claims, service_account_mismatch, service_account_not_found,
// service_account_archived, workspace_id_required, workspace_not_enabled,
// workspace_not_found, workspace_archived, workspace_unreachable;
// client_unknown, client_revoked, app_id_not_registered,
// workspace_mismatch, attestation_rejected, assertion_rejected,
// counter_not_increasing). The API key admin endpoints list, retrieve and
// update the keys CreateAPIKey makes.
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
// selection (docs/api-choices.md "Workspace selection"), the admin-API
// rule and access-token scopes, vendor-version, vendor-beta (with the
// route's required value), idempotency, and the handler. Responses are
// buffered until the handler returns (see responseBuffer); every error is
// the error body of docs/api-choices.md "Errors".
//
// # Spans
//
// WithSpanExporter makes the server emit the API spans
// (tracing*.go): a SERVER span vendor.<operation> per request to a route
// that names an operation (docs/tracing.md), parented by the request's
// traceparent; vendor.model_request and tool spans under
// vendor.messages.create; vendor.session.turn with its model requests and
// tool runs. Spans are exported synchronously, so a client that has read a
// response finds the spans that response ended. WithContentCapture adds
// message content.
//
// # Adding an endpoint
//
// An endpoint family is one file: a routes method returning its route
// table (method, path pattern, operation, required beta values, handler)
// added to Server.routes, handlers of the form func(*call) error, and the stored
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
// Firehose (load tests), and the errors of docs/session-events-wire.md 6.6:
// Fail (retries
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
// Status; Fault.StreamOnly keeps non-streamed requests from using it up.
//
// # Messages
//
// POST /v1/messages (JSON or a stream), /v1/messages/count_tokens and the
// OpenAI-compatible /v1/chat/completions follow docs/messages-wire.md over
// one deterministic fake model (fakemodel*.go, docs/messages-wire.md section
// 10): tokens
// are ⌈runes/4⌉ plus fixed overheads, the reply echoes the prompt ("You
// said: …"), tools named in the prompt as whole words are called (the JSON
// object after the name is the input, else one synthesized from the
// schema), thinking restates the prompt and is signed with an HMAC that a
// later request must verify (WithThinkingKey fixes the key), and the prompt
// cache keeps prefixes per workspace and model on the server clock. Nothing
// depends on "stream": a stream accumulates to the JSON message, ids
// excepted. Tool-call and container ids are derived from the request
// (msg_ ids come from the id source), so they match across the two.
//
// Directives steer the model from a test. Each is literal text inside a
// text block of the user message being answered; it is removed from the
// reply's view of the prompt but still counts as input:
//
//	[[refserver:say <text>]]                  the reply is exactly <text> (up to "]]")
//	[[refserver:error <type> [after=<n>]]]    <type>: overloaded_error (529), api_error (500),
//	                                          rate_limit_error (429). An HTTP error; on a stream
//	                                          with after=n: n events (pings not counted), then an
//	                                          error event (chat completions: an error data frame)
//	[[refserver:refuse [<category>|none] [all]]]  a refusal (cyber, bio, frontier_llm,
//	                                          reasoning_extraction, general_harms; default none);
//	                                          with fallbacks set, the next model answers, unless all
//	[[refserver:stop_reason <value>]]         forces the final stop_reason (any value)
//	[[refserver:redact]]                      adds a redacted_thinking block when thinking is on
//	[[refserver:delay <ms>]]                  waits <ms> (at most 3600000) on the server clock before the JSON
//	                                          response, or before each stream event (a ManualClock
//	                                          must be advanced; keep-alives follow WithPingInterval)
//
// An unknown directive name is a 400 naming the text block; bad arguments
// are a 400 quoting the directive. Fault injection applies to these paths
// like any other, and Fault.StreamCutAfter cuts their streams. Errors on
// /v1/chat/completions, from authentication to faults, use the OpenAI
// shape.
package refserver
