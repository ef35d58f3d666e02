// Package kit is what every endpoint family of the reference server shares:
// the call a handler receives, the route table entry, the error body and
// its constructors, strict decoding, the query and pagination readers, the
// clock and id sources, injected faults, the request log, idempotency and
// the vendor-version and vendor-beta checks. It knows no endpoint and no
// stored object: the families (package refserver, and the family packages
// beside kit) build on it, and the server in package refserver assembles
// their routes.
//
// # Handlers
//
// A family exports its routes as []Route. Each handler is a
// func(*Call) error: it reads the request from Call.R and Call.Ex.Body
// (Call.Decode decodes it strictly, see DecodeStrict), acts in
// Call.WorkspaceID, and either writes a response (Call.OK) or returns an
// *APIError, which the pipeline writes as the API's error body. Anything
// else returned is a bug in the server: a 500 whose details go to the log
// only.
//
// Every validation failure is a 400 invalid_request_error that names the
// field first (InvalidField: "limit: must be between 1 and 1000").
// Optional tells an omitted field from a null one. Lists are paginated by
// id (ParseIDPageParams, PaginateByID) or by opaque cursor
// (ParseCursorPageParams, PaginateByCursor) over newest-first Positions.
//
// The managed-agents families (agents, environments, sessions,
// deployments) decode nested objects and unions at a path (DecodeAt,
// TypeAt, ArrayAt, StringsAt: "tools[0].configs[2].name"), check enums and
// counts with the same messages (OneOf, BadType, CheckCount, Required,
// NotNull), and share metadata maps (MetadataCreate, MetadataPatch) and
// created_at windows (ParseCreatedRange); see kit/wire.go.
//
// # Streams
//
// StreamWriter writes server-sent events (Frame) to a call's connection and
// applies an injected Fault.StreamCutAfter; PingFrame is the keep-alive.
//
// # Time and ids
//
// Deps carries the server's Clock, IDSource and logger to every call.
// Deps.Now truncates to the microseconds the wire carries, so that what is
// stored equals what clients read. ManualClock lets a test move time;
// SequentialIDs makes ids deterministic. EverySecond drives time-driven work
// on a clock that moves by itself.
package kit
