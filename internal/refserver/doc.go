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
// buffered until the handler returns (see kit.ResponseBuffer); every error is
// the error body of docs/api-choices.md "Errors". A route with
// kit.Route.RawBody (file uploads) gets its body unread and reads it
// itself (package files).
//
// # Spans
//
// WithSpanExporter makes the server emit the API spans
// (tracing.go, package spans, and messages and sessions for their own): a SERVER span
// vendor.<operation> per request to a route
// that names an operation (docs/tracing.md), parented by the request's
// traceparent; vendor.model_request and tool spans under
// vendor.messages.create; vendor.session.turn with its model requests and
// tool runs. Spans are exported synchronously, so a client that has read a
// response finds the spans that response ended. WithContentCapture adds
// message content.
//
// # Adding an endpoint
//
// An endpoint family has a routes method returning its route table
// (kit.Route: method, path pattern, operation, required beta values,
// handler) added to Server.routes, handlers of the form func(*kit.Call)
// error, and the stored and wire forms of its objects. Package kit does
// the rest: DecodeStrict and Optional for bodies, CheckLength and the query
// readers for rules, PaginateByID and PaginateByCursor for lists, the
// APIError constructors for failures. Non-admin objects belong to
// Call.WorkspaceID. A family in its own package exports its routes (see
// messages.Service.Routes) and receives what it needs from the server in
// a Deps struct.
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
// With nothing queued, the agent answers "You said: T" after thinking (an
// agent with custom skills adds " (skills: <names>)"), and
// on a session's first turn calls the agent's first custom tool instead, if
// it has one (package script has the details, the default token counts
// included). The statuses rescheduling and terminated come only from these
// steps (rescheduling lasts no time: the retry starts in the same request).
//
// Streams are woken by their session's feed (package sessions), ping after
// WithPingInterval of silence, and end with the session (deleted, archived,
// or right after session.status_terminated; a new stream of an archived or
// terminated session ends at once). Fault.StreamCutAfter cuts a stream
// after n events, or ends it with an error frame when the fault has a
// Status; Fault.StreamOnly keeps non-streamed requests from using it up.
//
// # Messages
//
// POST /v1/messages, /v1/messages/count_tokens, the OpenAI-compatible
// /v1/chat/completions and GET /v1/models run over a deterministic fake
// model steered by directives in the prompt: package messages documents
// both.
//
// # Layout
//
// The server has the SDK's layout: one package per family, around a small
// façade. Each family owns its state and exports its routes and the few
// lookups other families need (returning copies, or immutable snapshots).
// All of that state is still guarded by one lock, the server's, which every
// family receives in its Deps: the engine runs a turn across sessions,
// agents and memory stores under it, so finer locks would need a new
// concurrency design, not a move.
//
//   - refserver (this package): the façade. New and its options, Start,
//     Seed and the test hooks, the request pipeline (middleware.go), route
//     assembly (Server.routes), the tick (timers.go), and the wiring of
//     the families' Deps. identity.go keeps the identity family's exported
//     names and script.go the scripted agent's, forwarding to packages
//     identity, script and sessions.
//   - kit: what every family shares: the call (kit.Call) and route
//     (kit.Route), API errors and their constructors, strict decoding,
//     query readers, pagination, ids, the clock, faults, the request log,
//     idempotency, the version and beta checks, the event-stream
//     writer, and the managed-agents wire helpers (kit/wire.go).
//   - spans: the API tracing: the tracer built from WithSpanExporter and
//     WithContentCapture, every request's SERVER span, content mode, and
//     the span helpers families share.
//   - messages: Messages, chat completions, the model catalog and the fake
//     model, and Message Batches (batches*.go: in memory, processed on the
//     server's clock; FillMessageBatch makes a large ended one at once).
//     It gets what it needs from the server through messages.Deps.
//   - memory: memory stores, memories and memory versions. Its state is
//     guarded by the server's lock (memory.Deps.Lock); sessions and
//     deployments check stores through memory.Service.StoreLocked.
//   - deployments: deployments and deployment runs, with scheduled
//     firing (Service.FireDueLocked, called from the server's tick). Its
//     state is guarded by the server's lock; agents, environments, memory
//     stores, the session parameters it stores and the session of a run
//     come through deployments.Deps (filled in deployments_deps.go).
//   - script: the scripted agent's step language: Step, its options and
//     constructors (re-exported here as Step, Say...), the checks that
//     compile queued turns into the Ops the engine runs, and the default
//     turns. It has no state and needs nothing from the server but a
//     roster lookup, passed to script.Compile.
//   - identity: workspaces, users and service accounts, API keys and
//     their admin endpoints, tunnels, access tokens, workload identity
//     federation and device attestation. The pipeline calls its
//     Authenticate, SelectWorkspace and CheckAccess; other families read
//     workspaces through identity.Service.Workspace (copies). Its state is
//     guarded by the server's lock (identity.Deps.Lock).
//   - agents: agents with their versions, model config, tools, skills and
//     multiagent rosters, and environments. Its state is guarded by the
//     server's lock (agents.Deps.Lock). Sessions and deployments resolve
//     agents through agents.Service.ResolveRefLocked, which returns the
//     immutable *agents.Version the engine reads, and check environments
//     through agents.Service.EnvironmentLocked (a copy).
//   - sessions: sessions, session resources, session events (send, list,
//     stream), the engine that runs the scripted agent's turns
//     (ScriptSession, ScriptAgent and ReleaseSession forward to it), the
//     streams' feeds and the engine's spans. Its state is guarded by the
//     server's lock (sessions.Deps.Lock); agents, environments and memory
//     stores come through sessions.Deps, and deployments create a run's
//     session through sessions.Service.CreateSessionLocked
//     (deployments_deps.go).
//   - files: uploads (streamed to disk: kit.Route.RawBody), the file
//     objects, downloads and deletes. Its state is guarded by the server's
//     lock (files.Deps.Lock); sessions and deployments check file resources
//     through files.Service.FileLocked, and the scripted agent's read tool
//     reads a mounted file through files.Service.ContentLocked. WithFileDir
//     and WithMaxFileSize configure it, PutFile creates a downloadable file
//     as the platform would, and Close removes the stored bytes.
//   - skills: custom skills and their versions (docs/skills-wire.md),
//     guarded by the server's lock; agents resolve custom skill
//     references through agents.Deps.ResolveSkillLocked, which the façade
//     fills from skills.Service.ResolveLocked.
//   - vaults: vaults and their credentials, whose secrets are write-only.
//     Its state is guarded by the server's lock (vaults.Deps.Lock);
//     sessions and deployments check vault_ids through
//     vaults.Service.VaultLocked (vaults.CheckIDsLocked, and
//     vaults.RunBlockerLocked for a deployment's runs), and the engine
//     finds an MCP server's credential through
//     vaults.Service.MCPCredentialLocked (docs/vaults-wire.md).
//   - work: the work queues of self-hosted environments
//     (docs/environment-work-wire.md), guarded by the server's lock. The
//     session engine queues and stops work through sessions.Deps
//     (WorkNeededLocked, SessionEndedLocked); the tick sweeps leases
//     (work.Service.SweepLocked). Environment keys are minted by
//     EnvironmentKey (work.go) and authenticated by package identity; the
//     façade keeps each key to its own environment and sessions
//     (checkEnvironmentKeyTarget).
//
// A new endpoint goes in its family's package, next to the SDK package of
// the same name; a new family gets a package of its own and one line in
// Server.routes.
package refserver
