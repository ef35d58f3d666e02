package tunnels_test

import (
	"context"
	"fmt"
	"log"

	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// A tunnel gives a private MCP server a hostname: an agent's MCP server URL
// on a subdomain of the tunnel's Domain is routed through it. The example
// uses platformtest, the in-process reference server; a program calls
// agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	t, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "build farm"})
	if err != nil {
		log.Fatal(err)
	}
	// The platform assigns the domain, and never reuses it. An agent's MCP
	// server on a subdomain of it goes through the tunnel:
	//   agents.MCPServer{Name: "builds", URL: "https://builds." + t.Domain + "/sse"}
	fmt.Println(t.DisplayName, t.Domain != "")

	// Archived tunnels drop out of the list unless IncludeArchived is set.
	if _, err := client.Tunnels.Archive(ctx, t.ID); err != nil {
		log.Fatal(err)
	}
	for _, includeArchived := range []bool{false, true} {
		n := 0
		for _, err := range client.Tunnels.All(ctx, tunnels.ListParams{IncludeArchived: includeArchived}) {
			if err != nil {
				log.Fatal(err)
			}
			n++
		}
		fmt.Println("include archived:", includeArchived, "tunnels:", n)
	}
	// Output:
	// build farm true
	// include archived: false tunnels: 0
	// include archived: true tunnels: 1
}
