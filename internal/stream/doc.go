// Package stream reads the API's server-sent event streams into typed values.
//
// Read turns one response body into an iterator of typed events, on top of
// go-sse's parser: it skips keep-alive pings and untyped events (the
// platform's clients ignore events without an `event:` line), turns an
// `error` event into an *apierror.Error, and hands every other event to the
// resource package's decoder, dispatching on the event's type so that the
// JSON is decoded once, straight into its final struct. Follow adds
// reconnection with reconciliation against history for streams that must
// not lose an event. ReadData reads the other kind of stream, the
// data-only one of the OpenAI-compatible endpoint (no `event:` lines, ended
// by `data: [DONE]`), yielding each event's data for the caller to decode.
//
// Nothing here starts a goroutine: events are read on the consumer's
// goroutine, and closing the body or cancelling the request's context ends
// a blocked read.
package stream
