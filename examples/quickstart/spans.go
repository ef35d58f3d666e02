package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// spans collects the SDK's spans, and the embedded server's API spans, in
// memory, so that the quickstart can show what tracing records.
type spans struct {
	tp  *sdktrace.TracerProvider
	sdk *tracetest.InMemoryExporter
	api *tracetest.InMemoryExporter // nil when talking to the real API
}

func newSpans() *spans {
	sdk := tracetest.NewInMemoryExporter()
	return &spans{sdk: sdk, tp: sdktrace.NewTracerProvider(sdktrace.WithSyncer(sdk))}
}

// summary prints each span name with how many times it was recorded, the
// kinds, and how many API spans share a trace with the SDK's.
func (s *spans) summary(ctx context.Context) {
	defer func() { _ = s.tp.Shutdown(ctx) }() // an in-memory exporter forgets its spans on shutdown: read them first
	traces := map[trace.TraceID]bool{}
	fmt.Println("\nSpans recorded by the SDK:")
	print(s.sdk.GetSpans(), traces)
	if s.api == nil {
		return
	}
	fmt.Println("Spans recorded by the API (the embedded server):")
	api := s.api.GetSpans()
	print(api, nil)
	joined := 0
	for _, sp := range api {
		if traces[sp.SpanContext.TraceID()] {
			joined++
		}
	}
	fmt.Printf("%d of %d API spans belong to the SDK's traces (traceparent propagation).\n", joined, len(api))
}

func print(stubs tracetest.SpanStubs, traces map[trace.TraceID]bool) {
	type row struct {
		kind   string
		count  int
		status string
	}
	rows := map[string]*row{}
	for _, sp := range stubs {
		if traces != nil {
			traces[sp.SpanContext.TraceID()] = true
		}
		name := sp.Name
		if strings.Contains(name, " ") { // tool spans carry the tool's name
			name = name[:strings.IndexByte(name, ' ')] + " <tool>"
		}
		r := rows[name]
		if r == nil {
			r = &row{kind: sp.SpanKind.String()}
			rows[name] = r
		}
		r.count++
		r.status = sp.Status.Code.String()
	}
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r := rows[n]
		fmt.Printf("  %-40s %-8s x%-3d last status %s\n", n, r.kind, r.count, r.status)
	}
}
