// Command memory-stores keeps notes an agent can read across sessions: it
// creates a memory store, writes memories into it, updates one under a
// precondition, lists the store a directory at a time, walks a memory's
// version history, and mounts the store on a session.
//
//	go run ./examples/memory-stores
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process; with it, against the API at VENDOR_BASE_URL, and it
// deletes what it created.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("memory-stores: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process.
	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
		err    error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient() // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(); err != nil {
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client() // its address, seeded key and workspace
	}
	if err != nil {
		return err
	}
	defer client.Close()

	store, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{
		Name:        "Team conventions",
		Description: "How the team writes reports.",
	})
	if err != nil {
		return err
	}
	defer client.MemoryStores.Delete(ctx, store.ID) // its memories and versions go with it
	fmt.Printf("Store %s %q\n", store.ID, store.Name)

	// Memories are text documents at file-like paths.
	dates, err := client.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{
		Path: "/style/dates.md", Content: "Reports use ISO-8601 dates.",
	})
	if err != nil {
		return err
	}
	for _, m := range []memorystores.MemoryCreateParams{
		{Path: "/style/tone.md", Content: "Short sentences. No jargon."},
		{Path: "/projects/apollo/owner.md", Content: "Apollo is owned by Dana."},
	} {
		if _, err := client.MemoryStores.Memories.Create(ctx, store.ID, m); err != nil {
			return err
		}
	}

	// A conditional update applies only if nobody changed the memory since
	// it was read: the precondition names the content's hash as read.
	updated, err := client.MemoryStores.Memories.Update(ctx, store.ID, dates.ID, memorystores.MemoryUpdateParams{
		Content:      new("Reports use ISO-8601 dates, in UTC."),
		Precondition: &memorystores.Precondition{ContentSHA256: dates.ContentSHA256},
	})
	if err != nil {
		return err
	}
	fmt.Printf("Updated %s: %d bytes, version %s\n", updated.Path, updated.ContentSizeBytes, updated.MemoryVersionID)
	// The same hash is stale now, so a second writer's update is refused.
	_, err = client.MemoryStores.Memories.Update(ctx, store.ID, dates.ID, memorystores.MemoryUpdateParams{
		Content:      new("Reports use US dates."),
		Precondition: &memorystores.Precondition{ContentSHA256: dates.ContentSHA256},
	})
	if !errors.Is(err, memorystores.ErrPreconditionFailed) {
		return fmt.Errorf("a stale update: got %v, want a failed precondition", err)
	}
	fmt.Println("A stale update is refused: the memory changed since that hash was read")

	// Listing one level deep shows the directories below as prefixes.
	fmt.Println("The store, one level deep:")
	for item, err := range client.MemoryStores.Memories.All(ctx, store.ID, memorystores.MemoryListParams{PathPrefix: "/", Depth: 1}) {
		if err != nil {
			return err
		}
		switch it := item.(type) {
		case *memorystores.MemoryPrefix:
			fmt.Println("  ", it.Path)
		case *memorystores.Memory:
			fmt.Printf("   %s (%d bytes)\n", it.Path, it.ContentSizeBytes)
		}
	}
	fmt.Println("Under /style/, with content:")
	for item, err := range client.MemoryStores.Memories.All(ctx, store.ID, memorystores.MemoryListParams{
		PathPrefix: "/style/", View: memorystores.ViewFull,
	}) {
		if err != nil {
			return err
		}
		if m, ok := item.(*memorystores.Memory); ok {
			fmt.Printf("   %-16s %q\n", m.Path, *m.Content)
		}
	}

	// Every write leaves a version, newest first.
	fmt.Printf("Versions of %s:\n", dates.Path)
	for v, err := range client.MemoryStores.Versions.All(ctx, store.ID, memorystores.VersionListParams{
		MemoryID: dates.ID, View: memorystores.ViewFull,
	}) {
		if err != nil {
			return err
		}
		fmt.Printf("   %s  %-8s %q\n", v.ID, v.Operation, *v.Content)
	}

	// A session mounts the store as a directory its agent reads and writes.
	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "memory-stores"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID)
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Report writer", Model: agents.ModelID(models.VendorHaiku55),
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: environment.ID,
		Resources: []sessions.ResourceParam{sessions.MemoryStoreResourceParam{
			MemoryStoreID: store.ID,
			Access:        sessions.AccessReadOnly,
			Instructions:  "Follow these conventions in every report.",
		}},
	})
	if err != nil {
		return err
	}
	defer client.Sessions.Delete(ctx, session.ID)
	for _, r := range session.Resources {
		if m, ok := r.(sessions.MemoryStoreResource); ok {
			fmt.Printf("Session %s mounts %q at %s (%s)\n", session.ID, m.Name, m.MountPath, m.Access)
		}
	}
	return nil
}
