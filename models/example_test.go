package models_test

import (
	"context"
	"fmt"
	"log"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// The catalogue lists the models the API serves, newest first. The
// example uses platformtest, the in-process reference server; a program
// calls agentplatform.NewClient() instead.
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

	// All fetches pages as the loop asks for them.
	for m, err := range client.Models.All(ctx, models.ListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.ID, m.DisplayName, m.Line, m.Lifecycle)
	}
	// Output:
	// vendor-opus-5-5 Vendor Opus 5.5 opus active
	// vendor-sonnet-5-5 Vendor Sonnet 5.5 sonnet active
	// vendor-haiku-5-5 Vendor Haiku 5.5 haiku active
	// vendor-opus-4-5 Vendor Opus 4.5 opus deprecated
	// vendor-haiku-4-5 Vendor Haiku 4.5 haiku deprecated
	// vendor-sonnet-4-5 Vendor Sonnet 4.5 sonnet deprecated
}

// Check a capability before using it, rather than letting the API refuse
// the request.
func ExampleService_Get() {
	client, done := exampleClient()
	defer done()

	m, err := client.Models.Get(context.Background(), models.VendorOpus55)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.DisplayName, "context window:", m.MaxInputTokens, "max output:", m.MaxTokens)
	fmt.Println("xhigh effort:", m.Capabilities.Effort.XHigh.Supported)
	fmt.Println("web search:", m.Capabilities.ServerTools.WebSearch.Supported)
	fmt.Println("adaptive thinking:", m.Capabilities.Thinking.Types.Adaptive.Supported)
	// Output:
	// Vendor Opus 5.5 context window: 1000000 max output: 128000
	// xhigh effort: true
	// web search: true
	// adaptive thinking: true
}

// exampleClient starts a reference server and returns a client for it and a
// function that closes both, as Example does step by step.
func exampleClient() (*agentplatform.Client, func()) {
	srv, err := platformtest.NewServer()
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
