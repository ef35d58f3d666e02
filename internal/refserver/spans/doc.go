// Package spans is the reference server's API tracing (docs/tracing.md),
// apart from the spans each family adds under its requests.
//
// A server builds one Tracing with New from its span exporter and
// settings; without an exporter New returns nil, and every method of a
// nil *Tracing returns at once, so the server pays one nil check per hook.
// Spans are exported synchronously: a client that has read a response
// finds the spans that response ended.
//
// What it does for every route that names an operation: StartRequest
// starts the request's SERVER span vendor.<op>, parented by the request's
// traceparent, with the request attributes (request id, method, route,
// URL parts, server address and port outside the cloud edition, the
// session id of session paths); EndRequest ends it with the organization,
// workspace and HTTP status, OK, ERROR with the error type answered, or
// unset when the client went away. The span lives in kit.Exchange.Span as
// a *Request (Of, Recording), so package kit stays free of OpenTelemetry.
//
// What families share: End and Outcome (how a span ends), ToolAttrs and
// ToolErrorType (tool spans), Content and AgentContent (content mode, with
// the content limit of internal/genai), Request.Msg (a family's spans that
// end with the request: vendor.messages.create's model attempts).
// Families start their own spans with Tracer: package messages for
// vendor.messages.create, the session engine for vendor.session.turn,
// vendor.model_request and its tool spans.
//
// State and locks: a Tracing is immutable after New except for the turn
// parent (ParentTurns, TurnParent), the request span that parents the
// session turns a request starts. It has no lock of its own: the server's
// session state lock guards it, which every caller of ParentTurns and
// TurnParent holds. The rest is safe for concurrent use.
package spans
