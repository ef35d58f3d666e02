// Package agentplatform is the Go client for the Agent Platform HTTP API.
//
//	client, err := agentplatform.NewClient() // reads VENDOR_API_KEY
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer client.Close()
//
//	m, err := client.Models.Get(ctx, "vendor-opus-5-5")
//
// The Client has one field per resource family (Models, Workspaces,
// Tunnels, …); each family lives in its own package with its types and
// params. Every method takes a context first and options last; options given
// to NewClient apply to every call, options given to a call apply to it
// alone (package option).
//
// Failed calls return an *apierror.Error (the API answered with an error), an
// *apierror.ValidationError (the SDK refused a parameter before sending), or
// a wrapped transport or context error. List endpoints return one page (List)
// or iterate over every page lazily (All).
//
// The client retries 408, 409, 429, 5xx and connection failures twice by
// default, honouring retry-after; POST requests carry an Idempotency-Key so a
// retry is never performed twice. It is safe for concurrent use.
//
// Where to look next:
//
//   - option: the options, for the client and for single calls
//     (credentials, base URL, retries, timeouts, logging, middleware,
//     tracing);
//   - apierror: the error types and the sentinels for errors.Is;
//   - auth: API keys, workload identity federation and device attestation;
//   - sessions: running an agent, and its event stream; toolrunner runs the
//     custom tools an agent calls, and tool defines them;
//   - messages: calling a model directly, with streaming and a tool loop;
//   - tracing: the OpenTelemetry spans the client records;
//   - platformtest: the whole API in your test's process, for testing code
//     that uses this client with no account and no network.
package agentplatform
