// Command quickstart tours the API: the model catalogue, the organization's
// workspaces, then an environment, an agent with a custom tool, a session of
// that agent, and one conversation turn streamed as it happens: the agent
// calls the custom tool, the program answers it, and the reply streams in.
// Last, one Messages call, streamed.
//
//	go run ./examples/quickstart
//
// With VENDOR_API_KEY set it talks to the API at VENDOR_BASE_URL (default
// https://api.vendor.com). Without it, it starts the SDK's reference server
// in this process, so it runs with no account and no network.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	traces := newSpans()
	opts, stop, err := connect(traces)
	if err != nil {
		return err
	}
	defer stop()
	defer traces.summary(ctx)

	// The global provider: the client and the tool runner both default to it.
	otel.SetTracerProvider(traces.tp)
	client, err := agentplatform.NewClient(opts...)
	if err != nil {
		return err
	}
	defer client.Close()

	fmt.Println("\nModels, newest first:")
	for m, err := range client.Models.All(ctx, models.ListParams{}) {
		if err != nil {
			return err
		}
		fmt.Printf("  %-18s %-18s context %7d tokens, output up to %6d, effort: %s\n",
			m.ID, m.DisplayName, m.MaxInputTokens, m.MaxTokens, effortLevels(m.Capabilities.Effort))
	}

	fmt.Println("\nWorkspaces:")
	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{IncludeDefault: true}) {
		if errors.Is(err, apierror.ErrPermission) {
			fmt.Println("  (listing workspaces needs a key that is not scoped to one workspace)")
			break
		}
		if err != nil {
			return err
		}
		fmt.Printf("  %-32s %-20s data stored in %s, inference default %s\n",
			ws.ID, ws.Name, ws.DataResidency.WorkspaceGeo, ws.DataResidency.DefaultInferenceGeo)
	}
	if err := startSession(ctx, client); err != nil {
		return err
	}
	return streamMessage(ctx, client)
}

// connect returns the client options: the environment's credentials when
// VENDOR_API_KEY is set, else those of a reference server started here.
func connect(traces *spans) ([]option.Option, func(), error) {
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Using the API at", envOr("VENDOR_BASE_URL", "https://api.vendor.com"))
		return nil, func() {}, nil
	}
	traces.api = tracetest.NewInMemoryExporter()
	srv := refserver.New(refserver.WithSpanExporter(traces.api))
	url, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("starting the reference server: %w", err)
	}
	seed := srv.Seed()
	fmt.Println("VENDOR_API_KEY is not set: using the embedded reference server at", url)
	opts := []option.Option{
		option.WithBaseURL(url),
		option.WithAPIKey(seed.APIKey),
		option.WithWorkspaceID(seed.DefaultWorkspaceID),
	}
	return opts, func() { _ = stop() }, nil
}

// effortLevels names the effort levels a model accepts.
func effortLevels(e models.EffortCapability) string {
	if !e.Supported {
		return "not supported"
	}
	var levels []string
	for _, l := range []struct {
		name string
		c    models.Capability
	}{{"low", e.Low}, {"medium", e.Medium}, {"high", e.High}, {"max", e.Max}, {"xhigh", e.XHigh}} {
		if l.c.Supported {
			levels = append(levels, l.name)
		}
	}
	return strings.Join(levels, " ")
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
