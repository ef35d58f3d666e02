// Package toolrunner answers the tool calls that sessions leave to the
// client (docs/session-events-wire.md 6.4): when a session's agent calls a
// custom tool, the session emits agent.custom_tool_use and waits; a Runner
// runs the tool and sends user.custom_tool_result. On self-hosted
// environments it also runs the sandbox tools (see "Self-hosted
// environments").
//
// Tools are tool.Tool values, the same ones the Messages tool loop uses.
// Register them on the agent with agents.FromTools, then run them:
//
//	refund := tool.Must(tool.New("refund_order", "Refund an order.",
//		func(ctx context.Context, in RefundInput) (tool.Result, error) {
//			// The call's id makes the refund idempotent (see "Exactly once").
//			r, err := payments.Refund(ctx, in.OrderID, toolrunner.CallID(ctx))
//			if err != nil {
//				return tool.Result{}, err // the model reads it as an error result
//			}
//			return tool.JSON(r)
//		}))
//	agent, err := client.Agents.Create(ctx, agents.CreateParams{
//		Name: "Support", Model: agents.ModelID(models.VendorHaiku55),
//		Tools: agents.FromTools(refund),
//	})
//	…
//	runner, err := toolrunner.New(client.Sessions, []tool.Tool{refund},
//		toolrunner.WithLogger(logger))
//	if err != nil { … }
//	defer runner.Close(context.Background())
//	err = runner.Run(ctx, session.ID) // until the session ends, or ctx does
//
// For many sessions, Add and Remove them while the Runner runs; their ends
// are reported to WithOnSessionEnd:
//
//	runner, err := toolrunner.New(client.Sessions, tools,
//		toolrunner.WithMaxConcurrency(32),
//		toolrunner.WithIdleTimeout(10*time.Minute),
//		toolrunner.WithOnSessionEnd(func(id string, err error) { jobs.Done(id, err) }))
//	err = runner.Add(sessionID)
//	…
//	err = runner.Remove(ctx, sessionID) // waits for its running tools, until ctx ends
//	err = runner.Close(ctx)             // the same, for every session
//
// # Calls
//
// Each agent.custom_tool_use of a registered tool is dispatched once (see
// "Exactly once" below). The tool runs with a timeout (WithToolTimeout,
// default 5 minutes); an error, a panic or a timeout becomes an error
// result (is_error) that the model reads. A panic's result says only
// "tool <name> panicked: <value>": the stack, with the build machine's
// source paths, never reaches the model or the session's history; it is
// logged at error level (see Observability). The call's id is in the
// tool's context (CallID). Calls of tools the Runner does not have are
// left to other consumers, never answered; they are logged at debug
// level.
//
// With WithConfirm the Runner also answers the confirmations of built-in
// and MCP tool calls (evaluated_permission ask) with the function's
// Decision: Allow, or Deny with a message the model reads. Without it
// they are left to the application.
//
// The answer is sent with Send. The client's pipeline already retries
// transient failures under one Idempotency-Key; when a failure outlasts
// those retries the Runner sends again, under the same key, so a retry
// cannot answer twice, waiting from 500 ms doubling up to 30 s (with
// jitter), or as long as the server's retry-after asks, up to 30 s. An
// answer the Runner owes is never dropped while it follows the session: it
// is sent until it is recorded, or until it is no longer wanted: the API
// says the call is no longer pending (a 409: answered elsewhere, closed by
// an interrupt, the session archived or terminated; logged, not retried)
// or the session is gone (404); the stream shows the call answered, or
// closed by an interrupt or the end of the turn; or the session ends. A
// refused credential (401, 403) is retried too, logged at error, as it may
// be fixed meanwhile. A result the API refuses as invalid (400) is
// replaced by an error result, so that the call is not left pending; when
// that is refused too, the call is given up, logged at error. What the
// Runner still owes when it stops following is reported (see Stopping).
//
// # Self-hosted environments
//
// A self-hosted environment runs the agent toolset's sandbox tools (bash,
// read, write, edit, glob, grep) on the client, in a worker of its own:
// the session emits an ordinary agent.tool_use and waits for a
// user.tool_result with its id. web_fetch, web_search and MCP tools still
// run on the server. A worker gives the Runner its implementations of
// these tools with WithSandboxTools, and its environment's key with
// WithRequestOptions, and runs one Runner for the sessions it serves:
//
//	bash := tool.Must(tool.New("bash", "Runs a command.",
//		func(ctx context.Context, in BashInput) (tool.Result, error) { // {"command": …}
//			box := sandboxes.For(toolrunner.SessionID(ctx)) // one sandbox per session
//			return box.Run(ctx, in.Command)
//		}))
//	runner, err := toolrunner.New(client.Sessions, nil,
//		toolrunner.WithSandboxTools(bash, read, write, edit, glob, grep),
//		toolrunner.WithRequestOptions(option.WithAPIKey(environmentKey)))
//	…
//	err = runner.Add(sessionID)
//
// A sandbox call whose policy allows it is run at once. One whose policy
// asks (always_ask, or an auto policy that could not judge it) is run once
// a user.tool_confirmation allows it, whoever sent it: WithConfirm's
// function, or the application; the Runner sees the confirmation on the
// stream, or in the history when it starts. A denied call is not run: the
// server closes it. A sandbox tool the Runner was not given is left to
// other consumers (logged at debug level), as is a custom tool it does not
// have.
//
// What this documentation says of custom tool calls holds for sandbox calls:
// timeouts, error results, retries of the answer, interrupts (a
// user.interrupt cancels a running sandbox tool), another consumer's
// answer (a user.tool_result cancels the Runner's run of that call),
// exactly once and reconciliation with the history (a call that a
// confirmation allowed but that has no user.tool_result yet is still
// pending, and is run), and the answers the Runner could not send
// (UnsentAnswer.Sandbox; Param builds the user.tool_result). SessionID and
// CallID tell a tool which session and call it serves.
//
// Use WithSandboxTools only on sessions of self-hosted environments:
// elsewhere the server runs these tools itself and refuses the client's
// result, after the Runner has run the tool too.
//
// # Sessions at once
//
// Every session is read on its own goroutine; tool calls run on their own
// goroutines, at most WithMaxConcurrency at once across all sessions
// (default 64). A reader never waits for a tool or for a free slot, so a
// slow tool in one session delays no other session, and a session's
// interrupts are seen while its tools run.
//
// Each session's end is reported once, to WithOnSessionEnd, with the
// error Run would return for it (nil when the session ended or sat idle,
// ErrRemoved, ErrClosed, or the failure that stopped it, wrapped in an
// *UnsentError when calls were left waiting); there is no other
// per-session error state to poll.
//
// # Stopping
//
// Following a session stops when it is terminated, deleted or archived
// (nil), when it has sat idle for WithIdleTimeout after a turn ended
// (nil; off by default), when Run's ctx ends (its error: running tools are
// cancelled and answers not yet recorded are not sent), when it is removed
// (ErrRemoved), when the Runner is closed (ErrClosed), and when its stream
// fails for good (that error). Remove and Close wait, until their ctx
// ends, for the tools already running to finish and their answers to be
// recorded; then they cancel the tools and stop sending. An interrupt
// while a tool runs (a user.interrupt, or the turn ending) closes the call
// on the server and cancels the tool's context (context.Cause says why); a
// result the tool still returns gets the expected 409.
//
// When the Runner stops following a session while calls still wait on it,
// the session's end error (Run's result, WithOnSessionEnd) is an
// *UnsentError that wraps the reason, so errors.Is still matches
// ErrClosed, ErrRemoved or the context's error. Its Answers are the
// answers the Runner had and did not get recorded (a tool's result, a
// confirmation's Decision), each with its call id and tool, for the
// application to send itself (UnsentAnswer.Param); its Unanswered are the
// calls whose tool was cancelled, with no answer. The session's agent
// waits for all of them; a session's next runner runs them again.
//
//	err := runner.Run(ctx, sessionID)
//	var unsent *toolrunner.UnsentError
//	if errors.As(err, &unsent) {
//		for _, a := range unsent.Answers {
//			_, err := client.Sessions.Events.Send(context.Background(), sessionID,
//				sessions.SendParams{Events: []sessions.EventParam{a.Param()}})
//			…
//		}
//	}
//
// A tool that ignores its context keeps its goroutine, and its
// concurrency slot, until it returns; the Runner does not wait for it past
// its timeout or past Close's deadline. A session that gets busy again
// after its idle timeout stopped the Runner needs Run or Add again; the
// reconciliation below picks up any call it left.
//
// # Exactly once
//
// "Exactly once" means: for each agent.custom_tool_use of a registered
// tool (and agent.tool_use of a sandbox tool given with
// WithSandboxTools), the server records at most one answer (it refuses a second with
// 409), and as long as some Runner follows the session, one is sent. The
// Runner never starts a call twice: within a process the event stream
// delivers each event once, in order, across dropped connections
// (sessions.EventStream reconnection), and the dispatcher also refuses a
// call id it has already dispatched. Across restarts, Run reconciles with
// the history before it follows live events: from the latest
// session.status_idle, its requires_action.event_ids less the calls
// already answered, plus any call recorded after that idle with no answer
// and no interrupt after it, are the pending calls; their events are found
// by walking the history newest first. The Runner runs those, then resumes
// the stream right after the newest event it read, so no call recorded in
// between is missed. A call whose answer is in the history is never run
// again.
//
// The limit: a Runner that stops between running a tool and recording its
// result (a crash, Run's ctx ending, Remove or Close cancelling it past
// their deadline, the stream failing for good) leaves that one call
// pending, and the next Runner runs it again, unless the application sent
// the answer UnsentError handed it. So a tool's side effects can happen
// twice for that call. Tools with side effects should be
// idempotent, keyed by CallID(ctx), which is the same on every run of a
// call. Two Runners following the same session at the same time would
// both run its calls (only one answer is accepted): a session must belong
// to one Runner at a time.
//
// # Spreading sessions over processes
//
// One Runner serves many sessions in one process. To spread sessions over
// several processes or machines, use the job system you already have (a
// queue with leases, a scheduler, a database table with an owner column);
// the Runner needs no protocol of its own:
//
//   - Shard by session id (a hash of it, or a lease per session), so that
//     a session belongs to one Runner at a time. When a worker takes a
//     session, it calls Add; when it gives it up, it calls Remove and
//     waits for Remove to return before the lease is released, so that
//     no tool of the session still runs there.
//   - WithOnSessionEnd tells the worker when a session is done (nil: it
//     ended or sat idle) or failed, to complete or retry its job.
//   - A worker that dies leaves its sessions' pending calls pending; the
//     worker that takes them over reconciles with the history when it
//     calls Add, so the hand-over neither loses nor repeats a call, beyond
//     the one call per session "Exactly once" describes.
//
// # Watching sessions
//
// An application that watches its sessions while a Runner answers their
// calls can read them through the Runner with WithEventObserver, rather
// than open a second event stream per session: the observer gets every
// event the Runner reads, on the session's reader goroutine, in order,
// each once, from where the Runner's reconciliation left off until it
// stops following.
//
// # Observability
//
// Each run of a tool is an INTERNAL span "vendor.custom_tool_use <tool>",
// or "vendor.tool_use <tool>" for a sandbox tool (docs/tracing.md), with
// gen_ai.operation.name execute_tool, gen_ai.tool.name,
// gen_ai.tool.call.id, gen_ai.tool.type function (the client runs both)
// and vendor.session.id; its status is OK, ERROR with error.type
// tool_error (an error result) or timeout, or unset when the call was
// cancelled. It is a child of the span in Run's context (none for Add),
// and parents the spans the tool starts and the request that sends its
// result.
// In content mode the span also holds gen_ai.tool.call.arguments and
// gen_ai.tool.call.result. Spans go under the scope attr.SDKScope.
//
// The Runner takes its tracer provider, logger and content mode from the
// client whose Sessions it is given (option.WithTracerProvider,
// option.WithLogger, option.WithContentCapture), so that a client set up
// once traces and logs the tool calls too; WithTracerProvider, WithLogger
// and WithContentCapture override them. Without either: the global
// provider, no logging, and content mode from
// OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT.
//
// Logging goes through log/slog. Tool inputs and results are logged only
// at debug level, and through the client's logger only in content mode,
// as the client logs request bodies. A tool's panic is logged at error
// level with its stack; with no logger at all, the stack goes to
// slog.Default.
package toolrunner
