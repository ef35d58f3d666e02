package agentplatform_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"

	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// Execute calls an endpoint the SDK has no method for yet, with the
// client's credentials, retries, tracing and typed errors. The result is
// whatever the caller declares: a map, or a struct of its own.
func ExampleClient_Execute() {
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

	var ws struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	body := map[string]any{"name": "made raw"}
	if err := client.Execute(ctx, http.MethodPost, "/v1/organizations/workspaces", body, &ws); err != nil {
		log.Fatal(err)
	}

	var got map[string]any
	path := "/v1/organizations/workspaces/" + url.PathEscape(ws.ID) // ids are escaped
	if err := client.Execute(ctx, http.MethodGet, path, nil, &got); err != nil {
		log.Fatal(err)
	}
	fmt.Println(got["name"], got["type"])

	var page struct {
		Data []map[string]any `json:"data"`
	}
	err = client.Execute(ctx, http.MethodGet, "/v1/models", nil, &page, option.WithQuery("limit", "1"))
	fmt.Println(len(page.Data), err)
	// Output:
	// made raw workspace
	// 1 <nil>
}
