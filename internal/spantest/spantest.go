// Package spantest reads the spans a test recorded with
// go.opentelemetry.io/otel/sdk/trace/tracetest: one home for the helpers
// every package's tracing tests need.
package spantest

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Attrs returns a span's attributes by key.
func Attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := make(map[attribute.Key]attribute.Value, len(s.Attributes()))
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// Named returns the ended spans called name, in the order they ended.
func Named(rec *tracetest.SpanRecorder, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// One returns the one ended span called name, failing the test when there
// is not exactly one.
func One(tb testing.TB, rec *tracetest.SpanRecorder, name string) sdktrace.ReadOnlySpan {
	tb.Helper()
	spans := Named(rec, name)
	if len(spans) != 1 {
		tb.Fatalf("%d ended spans named %s, want 1", len(spans), name)
	}
	return spans[0]
}
