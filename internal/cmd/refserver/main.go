// Command refserver runs the reference server on a local address and
// prints how to point an SDK client at it:
//
//	go run ./internal/cmd/refserver [-addr 127.0.0.1:8080]
//
// It serves until SIGINT or SIGTERM, then shuts down gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		log.SetFlags(0)
		log.Fatalf("refserver: %v", err)
	}
}

// run serves until ctx is done, having printed the base URL and the
// environment a client needs.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("refserver", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:0", "address to listen on")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // -h: usage was printed
		}
		return err
	}

	srv := refserver.New()
	baseURL, stop, err := srv.Start(*addr)
	if err != nil {
		return err
	}
	seed := srv.Seed()
	fmt.Fprintf(stdout, "reference server listening on %s\n", baseURL)
	fmt.Fprintf(stdout, "VENDOR_BASE_URL=%s\n", baseURL)
	fmt.Fprintf(stdout, "VENDOR_API_KEY=%s\n", seed.APIKey)
	fmt.Fprintf(stdout, "VENDOR_WORKSPACE_ID=%s\n", seed.DefaultWorkspaceID)

	<-ctx.Done()
	if err := stop(); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
