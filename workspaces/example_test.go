package workspaces_test

import (
	"context"
	"fmt"
	"log"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// Workspaces are admin API objects: the key must not be scoped to one
// workspace. The examples use platformtest, the in-process reference
// server, whose key is an organization owner's; a program calls
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

	// Keep inference in the US; the workspace's own geo is fixed at creation.
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{
		Name: "research",
		DataResidency: &workspaces.DataResidencyParams{
			AllowedInferenceGeos: workspaces.OnlyGeos(workspaces.GeoUS),
			DefaultInferenceGeo:  workspaces.GeoUS,
		},
		Tags: map[string]string{"team": "ml"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ws.Name, ws.DataResidency.WorkspaceGeo, ws.DataResidency.AllowedInferenceGeos.Geos, ws.Tags)

	// Empty fields are left alone; Tags, when given, replaces every tag.
	ws, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{
		Name: "research-2026",
		Tags: map[string]string{"team": "ml", "cost-center": "42"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ws.Name, ws.Tags)
	// Output:
	// research us [us] map[team:ml]
	// research-2026 map[cost-center:42 team:ml]
}

// All walks every page lazily. The organization's default workspace and
// archived workspaces are listed only when asked for.
func ExampleService_All() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	var ids []string
	for _, name := range []string{"alpha", "beta", "gamma"} {
		ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: name})
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, ws.ID)
	}
	// Archiving is one-way: the workspace stays readable but takes no new work.
	if _, err := client.Workspaces.Archive(ctx, ids[0]); err != nil {
		log.Fatal(err)
	}

	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{Limit: 2, IncludeDefault: true}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ws.Name) // newest first, two per request
	}
	// Output:
	// gamma
	// beta
	// Default Workspace
}

// exampleClient starts a reference server and returns a client for it and a
// function that closes both, as Example does step by step. A fixed start
// time makes ids and timestamps, and so list order, the same on every run.
func exampleClient() (*agentplatform.Client, func()) {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)))
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return client, func() {
		client.Close()
		srv.Close()
	}
}
