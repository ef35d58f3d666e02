package tracing_test

import (
	"context"
	"fmt"
	"log"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// Give the client a TracerProvider and every call becomes a CLIENT span
// named after its operation. Attributes that OpenTelemetry's semantic
// conventions define have their keys in go.opentelemetry.io/otel/semconv;
// this package names the vendor's own. Here the spans go to an in-memory exporter;
// a program would export them to its collector. The example uses
// platformtest, the in-process reference server.
func Example() {
	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer tp.Shutdown(context.Background())

	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client(option.WithTracerProvider(tp))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	if _, err := client.Models.Get(ctx, models.VendorHaiku55); err != nil {
		log.Fatal(err)
	}
	_, err = client.Messages.Create(ctx, messages.MessageParams{
		Model: models.VendorHaiku55, MaxTokens: 100,
		Messages: []messages.MessageParam{messages.UserText("Hello")},
	})
	if err != nil {
		log.Fatal(err)
	}

	for _, span := range exporter.GetSpans() {
		fmt.Println(span.Name, span.SpanKind, span.InstrumentationScope.Name)
		for _, a := range span.Attributes {
			switch a.Key {
			case semconv.HTTPResponseStatusCodeKey, semconv.GenAIRequestModelKey, semconv.GenAIUsageOutputTokensKey:
				fmt.Println("  ", a.Key, a.Value.String())
			}
		}
	}
	// Output:
	// vendor.models.retrieve client com.vendor.sdk.go
	//    http.response.status_code 200
	// vendor.messages.create client com.vendor.sdk.go
	//    gen_ai.request.model vendor-haiku-5-5
	//    http.response.status_code 200
	//    gen_ai.usage.output_tokens 4
}

// Requests carry traceparent, so the API's own spans join the caller's
// trace. platformtest.WithSpanExporter collects the test server's spans,
// for a test that checks the whole trace.
func Example_serverSpans() {
	clientSpans, serverSpans := tracetest.NewInMemoryExporter(), tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(clientSpans))
	defer tp.Shutdown(context.Background())

	srv, err := platformtest.NewServer(platformtest.WithSpanExporter(serverSpans))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client(option.WithTracerProvider(tp))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	if _, err := client.Models.Get(context.Background(), models.VendorOpus55); err != nil {
		log.Fatal(err)
	}
	c, s := clientSpans.GetSpans()[0], serverSpans.GetSpans()[0]
	fmt.Println(c.Name, c.SpanKind, "->", s.Name, s.SpanKind)
	fmt.Println("same trace:", s.SpanContext.TraceID() == c.SpanContext.TraceID())
	fmt.Println("server span's parent is the client span:", s.Parent.SpanID() == c.SpanContext.SpanID())
	// Output:
	// vendor.models.retrieve client -> vendor.models.retrieve server
	// same trace: true
	// server span's parent is the client span: true
}

// Content mode adds prompts and outputs to the spans, as JSON in the
// OpenTelemetry GenAI message format. It is off by default: prompts may
// hold personal data. Credentials are never recorded, in either mode.
func Example_contentCapture() {
	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	defer tp.Shutdown(context.Background())

	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client(option.WithTracerProvider(tp), option.WithContentCapture(true))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	_, err = client.Messages.Create(context.Background(), messages.MessageParams{
		Model: models.VendorHaiku55, MaxTokens: 100,
		Messages: []messages.MessageParam{messages.UserText("Hello")},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range exporter.GetSpans()[0].Attributes {
		if a.Key == semconv.GenAIInputMessagesKey || a.Key == semconv.GenAIOutputMessagesKey {
			fmt.Println(a.Key, a.Value.String())
		}
	}
	// Output:
	// gen_ai.input.messages [{"role":"user","parts":[{"type":"text","content":"Hello"}]}]
	// gen_ai.output.messages [{"role":"assistant","parts":[{"type":"text","content":"You said: Hello"}],"finish_reason":"stop"}]
}
