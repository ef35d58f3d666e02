// Package messages is the Messages family of the reference server.
//
// POST /v1/messages (JSON or a stream), /v1/messages/count_tokens and the
// OpenAI-compatible /v1/chat/completions follow docs/messages-wire.md over
// one deterministic fake model (fakemodel*.go, docs/messages-wire.md section
// 10): tokens
// are ⌈runes/4⌉ plus fixed overheads, the reply echoes the prompt ("You
// said: …"), tools named in the prompt as whole words are called (the JSON
// object after the name is the input, else one synthesized from the
// schema; members of the browser and computer toolsets are validated but
// never called), thinking restates the prompt and is signed with an HMAC that a
// later request must verify (refserver.WithThinkingKey fixes the key), and the prompt
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
//	                                          must be advanced; keep-alives follow refserver.WithPingInterval)
//
// An unknown directive name is a 400 naming the text block; bad arguments
// are a 400 quoting the directive. Fault injection applies to these paths
// like any other, and Fault.StreamCutAfter cuts their streams. Errors on
// /v1/chat/completions, from authentication to faults, use the OpenAI
// shape.
//
// Message Batches (batches*.go) follow docs/message-batches-wire.md: a
// batch is held in memory and processed on the server's clock, each
// request through the same fake model, whenever a request reads it.
//
// # In the server
//
// New builds the family from Deps (the server's clock, ids and logger, the
// ping interval, the thinking key, the span tracer and the workspaces'
// data residency); Service.Routes are its endpoints, GET /v1/models
// included, which the server adds to its route table. The family's state
// (prompt cache, containers, the fingerprints of requests that asked for
// cache diagnostics, clock waits) has its own lock.
package messages
