package platformtest

import (
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Option configures a Server.
type Option func(*config)

type config struct {
	start        time.Time // WithStartTime; zero: the real time
	spanExporter sdktrace.SpanExporter
	maxFileSize  int64 // WithMaxFileSize; 0: the platform's limit
}

// WithStartTime makes the server deterministic, for tests that compare
// output: its clock starts at t and stands still until Advance moves it,
// and it assigns ids in sequence (agent_01…01, agent_01…02, …) instead of
// at random. Two servers given the same t and the same requests then answer
// alike, timestamps, ids and the order of lists included. (API key secrets
// stay random: nothing should predict a credential.) A zero t is ignored.
//
// Without it, the clock reads the real time, plus whatever Advance added.
func WithStartTime(t time.Time) Option {
	return func(c *config) { c.start = t }
}

// WithSpanExporter makes the server export its API spans to e: one SERVER
// span per request, named vendor.<operation> and parented by the request's
// traceparent, so that a test can check that the client's span and the
// server's share one trace; and the spans of session turns, their model
// requests and tool runs. Spans are exported synchronously, before the
// response that ends them is sent. The server never shuts e down.
func WithSpanExporter(e sdktrace.SpanExporter) Option {
	return func(c *config) { c.spanExporter = e }
}

// WithMaxFileSize sets the largest file the server accepts in an upload
// (default 500 MB, the platform's limit), so that a test can upload more,
// or reach the limit with less. Values of zero or less keep the default.
func WithMaxFileSize(n int64) Option {
	return func(c *config) { c.maxFileSize = n }
}
