package vaults_test

import (
	"context"
	"fmt"
	"log"

	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// A vault keeps the token of an MCP server; sessions that name the vault in
// vault_ids use it, and no response ever shows it again. The example uses
// platformtest, the in-process reference server; a program calls
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

	v, err := client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: "Issue tracker bot"})
	if err != nil {
		log.Fatal(err)
	}
	params := vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://mcp.example.com/mcp", Token: param.Secret("tok_live_123")},
	}
	fmt.Println(params) // the token is redacted
	cred, err := client.Vaults.Credentials.Create(ctx, v.ID, params)
	if err != nil {
		log.Fatal(err)
	}
	switch a := cred.Auth.(type) {
	case *vaults.StaticBearerAuth:
		fmt.Println("bearer token for", a.MCPServerURL)
	case *vaults.MCPOAuthAuth:
		fmt.Println("OAuth for", a.MCPServerURL)
	}
	// Output:
	// {Auth:{MCPServerURL:https://mcp.example.com/mcp Token:[redacted]} DisplayName: Metadata:map[]}
	// bearer token for https://mcp.example.com/mcp
}
