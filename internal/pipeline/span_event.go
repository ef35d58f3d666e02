package pipeline

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
)

// The reconnect event of a stream's span (docs/tracing.md): a session
// stream that reconnects keeps one span for its whole life, so a dropped
// connection it recovered from is an event on that span rather than its
// status, which says what the application saw.
const (
	// EventStreamReconnect names the event.
	EventStreamReconnect = "vendor.stream.reconnect"
	// StreamMissedEvents counts the events the stream re-delivered from
	// the history after the drop.
	StreamMissedEvents = attribute.Key("vendor.stream.reconnect.missed_events")
	// StreamReconnectAttempts counts the attempts the reconnection took.
	StreamReconnectAttempts = attribute.Key("vendor.stream.reconnect.attempts")
)

// Reconnected records on a stream's span that a dropped connection was
// replaced: error.type says why it dropped (absent when the server ended
// it cleanly), then how many events the history made up for and how many
// attempts it took. Never any content.
func (s Span) Reconnected(cause error, missed, attempts int) {
	if s.st == nil {
		return
	}
	kv := make([]attribute.KeyValue, 0, 3)
	if cause != nil {
		kv = append(kv, attr.ErrorType.String(errorType(cause)))
	}
	kv = append(kv, StreamMissedEvents.Int(missed), StreamReconnectAttempts.Int(attempts))
	s.span.AddEvent(EventStreamReconnect, trace.WithAttributes(kv...))
}
