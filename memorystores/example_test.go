package memorystores_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// A memory store holds text memories at file paths; sessions mount it and
// the agent reads and writes them as files. The example uses platformtest,
// the in-process reference server; a program calls
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

	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "User Preferences"})
	if err != nil {
		log.Fatal(err)
	}
	mem, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{
		Path: "/reports/style.md", Content: "Dates in ISO 8601.",
	})
	if err != nil {
		log.Fatal(err)
	}

	// A conditional write: it applies only if nobody (an agent, say) changed
	// the memory since we read it, which the content hash tells.
	read := mem.ContentSHA256
	_, err = client.MemoryStores.Memories.Update(ctx, store.ID, mem.ID, memorystores.MemoryUpdateParams{
		Content: new("Dates in ISO 8601, times in UTC."), Precondition: &memorystores.Precondition{ContentSHA256: read},
	})
	fmt.Println("first write:", err)
	_, err = client.MemoryStores.Memories.Update(ctx, store.ID, mem.ID, memorystores.MemoryUpdateParams{
		Content: new("Dates as DD/MM/YYYY."), Precondition: &memorystores.Precondition{ContentSHA256: read},
	})
	fmt.Println("stale write refused:", errors.Is(err, memorystores.ErrPreconditionFailed))

	// Get returns the content; Create, Update and List leave it out by default.
	mem, err = client.MemoryStores.Memories.Get(ctx, store.ID, mem.ID, memorystores.MemoryGetParams{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(mem.Path, *mem.Content)
	// Output:
	// first write: <nil>
	// stale write refused: true
	// /reports/style.md Dates in ISO 8601, times in UTC.
}

// Listing with a Depth walks the store like a directory tree: what lies
// deeper comes back once per directory, as a *MemoryPrefix.
func ExampleMemoriesService_All() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "Projects"})
	if err != nil {
		log.Fatal(err)
	}
	for _, path := range []string{"/projects/README.md", "/projects/foo/notes.md", "/projects/foo/todo.md", "/projects/bar/notes.md"} {
		if _, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{Path: path}); err != nil {
			log.Fatal(err)
		}
	}
	params := memorystores.MemoryListParams{PathPrefix: "/projects/", Depth: 1}
	for item, err := range client.MemoryStores.Memories.All(ctx, store.ID, params) {
		if err != nil {
			log.Fatal(err)
		}
		switch it := item.(type) {
		case *memorystores.Memory:
			fmt.Println("memory   ", it.Path)
		case *memorystores.MemoryPrefix:
			fmt.Println("directory", it.Path) // list it with PathPrefix: it.Path
		}
	}
	// Output:
	// memory    /projects/README.md
	// directory /projects/bar/
	// directory /projects/foo/
}

// Every write leaves an immutable version, newest first, with who wrote
// it; versions outlive the memory.
func ExampleVersionsService_All() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "Notes"})
	if err != nil {
		log.Fatal(err)
	}
	mem, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{Path: "/notes.md", Content: "draft"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.MemoryStores.Memories.Update(ctx, store.ID, mem.ID, memorystores.MemoryUpdateParams{Path: "/final.md"}); err != nil {
		log.Fatal(err)
	}
	if err := client.MemoryStores.Memories.Delete(ctx, store.ID, mem.ID, memorystores.MemoryDeleteParams{}); err != nil {
		log.Fatal(err)
	}
	for v, err := range client.MemoryStores.Versions.All(ctx, store.ID, memorystores.VersionListParams{MemoryID: mem.ID}) {
		if err != nil {
			log.Fatal(err)
		}
		_, byKey := v.CreatedBy.(*memorystores.APIActor)
		fmt.Println(v.Operation, v.Path, "written with an API key:", byKey)
	}
	// Output:
	// deleted /final.md written with an API key: true
	// modified /final.md written with an API key: true
	// created /notes.md written with an API key: true
}

// Paths behave as a file tree: a memory cannot sit at, above or below
// another's path. errors.Is tells a conflict apart, errors.As gives the
// memory in the way.
func ExamplePathConflictError() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "Notes"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{Path: "/projects/foo", Content: "x"}); err != nil {
		log.Fatal(err)
	}
	_, err = client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{Path: "/projects/foo/notes.md", Content: "y"})
	fmt.Println("conflict:", errors.Is(err, memorystores.ErrPathConflict))
	var conflict *memorystores.PathConflictError
	if errors.As(err, &conflict) {
		fmt.Println("taken by the memory at", conflict.ConflictingPath)
	}
	// Output:
	// conflict: true
	// taken by the memory at /projects/foo
}

// exampleClient starts a reference server and returns a client for it and
// a function that closes both, as Example does step by step. A fixed start
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
