package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/platformtest"
)

// traces keeps the SDK's spans, and the embedded server's API spans, in
// memory, so that the quickstart can show what tracing records. A real
// program would export them (see examples/tracing-stdout).
type traces struct {
	provider *sdktrace.TracerProvider
	sdk      *tracetest.InMemoryExporter
	api      *tracetest.InMemoryExporter // the embedded server's spans; empty against the real API
}

func newTraces() *traces {
	sdk := tracetest.NewInMemoryExporter()
	return &traces{
		provider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(sdk)),
		sdk:      sdk,
		api:      tracetest.NewInMemoryExporter(),
	}
}

// embeddedServerOption makes the embedded server export its API spans.
func (t *traces) embeddedServerOption() platformtest.Option {
	return platformtest.WithSpanExporter(t.api)
}

// summary prints each span name with its kind and count, and how many of the
// API's spans joined the SDK's traces.
func (t *traces) summary(ctx context.Context) {
	defer func() { _ = t.provider.Shutdown(ctx) }() // shutting down clears the in-memory spans: read them first
	ours := map[trace.TraceID]bool{}
	fmt.Println("\nSpans recorded by the SDK:")
	printSpans(t.sdk.GetSpans(), ours)
	api := t.api.GetSpans()
	if len(api) == 0 {
		return
	}
	fmt.Println("Spans recorded by the API (the embedded server):")
	printSpans(api, nil)
	joined := 0
	for _, sp := range api {
		if ours[sp.SpanContext.TraceID()] {
			joined++
		}
	}
	fmt.Printf("%d of %d API spans share a trace with the SDK's (traceparent propagation).\n", joined, len(api))
}

// printSpans prints one line per span name, and records the spans' traces
// in traceIDs when it is not nil.
func printSpans(spans tracetest.SpanStubs, traceIDs map[trace.TraceID]bool) {
	type row struct {
		kind  string
		count int
	}
	rows := map[string]*row{}
	for _, sp := range spans {
		if traceIDs != nil {
			traceIDs[sp.SpanContext.TraceID()] = true
		}
		name := sp.Name
		if tool, ok := strings.CutPrefix(name, "vendor.custom_tool_use "); ok {
			name = "vendor.custom_tool_use <" + tool + ">"
		}
		r := rows[name]
		if r == nil {
			r = &row{kind: sp.SpanKind.String()}
			rows[name] = r
		}
		r.count++
	}
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Printf("  %-44s %-8s x%d\n", n, rows[n].kind, rows[n].count)
	}
}
