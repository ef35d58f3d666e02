package agentplatform_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// A program creates one client and shares it. The example points it at
// platformtest, the in-process reference server; against the real API,
// agentplatform.NewClient() with no options reads VENDOR_API_KEY (and
// VENDOR_BASE_URL, VENDOR_WORKSPACE_ID) from the environment.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	client, err := agentplatform.NewClient(
		option.WithBaseURL(srv.URL()),
		option.WithAPIKey(srv.APIKey()),
		option.WithWorkspaceID(srv.WorkspaceID()), // the key is not scoped to one workspace
	)
	if err != nil {
		log.Fatal(err)
	}
	// Close releases idle connections once the program is done with the client.
	defer client.Close()
	ctx := context.Background()

	// One field per resource family; ctx first, options last.
	m, err := client.Models.Get(ctx, models.VendorSonnet55)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.DisplayName)

	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{IncludeDefault: true}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ws.Name)
	}
	// Output:
	// Vendor Sonnet 5.5
	// Default Workspace
}

// Options given to NewClient apply to every call; options given to a call
// apply to it alone and win over the client's.
func ExampleNewClient() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	// srv.Client is NewClient with the server's URL, key and workspace, plus opts.
	client, err := srv.Client(
		option.WithMaxRetries(0),                  // fail fast...
		option.WithRequestTimeout(30*time.Second), // ...and never hang
	)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	srv.InjectFault(platformtest.Fault{Status: 529, Times: 2}) // the API is overloaded, twice

	_, err = client.Models.Get(ctx, models.VendorOpus55)
	fmt.Println("no retries, overloaded:", errors.Is(err, apierror.ErrOverloaded))

	// This call is worth waiting for: up to 3 retries.
	m, err := client.Models.Get(ctx, models.VendorOpus55, option.WithMaxRetries(3))
	fmt.Println("3 retries:", m.DisplayName, err)
	// Output:
	// no retries, overloaded: true
	// 3 retries: Vendor Opus 5.5 <nil>
}
