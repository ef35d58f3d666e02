// Command tracing-stdout sends the SDK's OpenTelemetry spans to the
// OpenTelemetry stdout exporter: every API call is a CLIENT span named after
// its operation (vendor.models.retrieve, vendor.messages.create, …), a child
// of the application's span, with the GenAI attributes, and with an error
// status when the call fails.
//
//	go run ./examples/tracing-stdout
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process; with it, against the API at VENDOR_BASE_URL. Swap the
// exporter for an OTLP one to send the same spans to a collector.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("tracing-stdout: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The exporter writes each span as one line of JSON on stdout
	// (stdouttrace.WithPrettyPrint spreads it over many). The batcher
	// exports in the background; Shutdown flushes what is left.
	exporter, err := stdouttrace.New()
	if err != nil {
		return err
	}
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	defer func() {
		fmt.Println("\nThe spans, as the stdout exporter writes them:")
		if err := provider.Shutdown(ctx); err != nil {
			log.Print("tracing-stdout: flushing the spans: ", err)
		}
	}()

	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process. WithTracerProvider sends
	// the client's spans to provider; without it they go to the global
	// provider (otel.SetTracerProvider).
	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient(option.WithTracerProvider(provider)) // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(); err != nil {
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client(option.WithTracerProvider(provider)) // its address, seeded key and workspace
	}
	if err != nil {
		return err
	}
	defer client.Close()

	// The application's own span: the SDK's spans become its children.
	ctx, span := provider.Tracer("tracing-stdout").Start(ctx, "answer-question")
	defer span.End()

	model, err := client.Models.Get(ctx, models.VendorHaiku55)
	if err != nil {
		return err
	}
	fmt.Println("Model:", model.DisplayName)

	msg, err := client.Messages.Create(ctx, messages.MessageParams{
		Model:     model.ID,
		MaxTokens: 64,
		Messages:  []messages.MessageParam{messages.UserText("Say hello.")},
	}, option.WithConversationID("conversation-42")) // gen_ai.conversation.id on this call's span
	if err != nil {
		return err
	}
	fmt.Println("Reply:", msg.Text())

	// A failed call: its span has an error status and error.type.
	_, err = client.Models.Get(ctx, "no-such-model")
	if !errors.Is(err, apierror.ErrNotFound) {
		return fmt.Errorf("getting an unknown model: got %v, want not found", err)
	}
	fmt.Println("Unknown model:", err)
	return nil
}
