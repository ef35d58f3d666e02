package pagination_test

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/pagination"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// All fetches a page only when the loop reaches it, and breaking out of the
// loop fetches nothing more. The example uses platformtest, the in-process
// reference server, which counts the requests it receives; its fixed start
// time makes the order of the list the same on every run.
func Example() {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)))
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

	for i := range 7 {
		if _, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "tunnel " + strconv.Itoa(i)}); err != nil {
			log.Fatal(err)
		}
	}
	before := len(srv.Requests())

	// Three per page; stop after the fourth tunnel, which is on page two.
	n := 0
	for t, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 3}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(t.DisplayName)
		if n++; n == 4 {
			break
		}
	}
	fmt.Println("pages fetched:", len(srv.Requests())-before)
	// Output:
	// tunnel 6
	// tunnel 5
	// tunnel 4
	// tunnel 3
	// pages fetched: 2
}

// List returns a single page, for code that keeps the cursor itself (a
// web UI's "next" link, say).
func Example_list() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	for i := range 3 {
		if _, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "tunnel " + strconv.Itoa(i)}); err != nil {
			log.Fatal(err)
		}
	}
	params := tunnels.ListParams{Limit: 2}
	for {
		page, err := client.Tunnels.List(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Data), "on this page, more:", page.HasMore())
		if !page.HasMore() {
			break
		}
		params.Page = page.NextPage
	}
	// Output:
	// 2 on this page, more: true
	// 1 on this page, more: false
}

// Cursor is the iterator behind every cursor-paginated All; fetch is
// called once per page, as the loop needs it.
func ExampleCursor() {
	pages := map[string]*pagination.CursorPage[string]{
		"":   {Data: []string{"a", "b"}, NextPage: "p2"},
		"p2": {Data: []string{"c", "d"}, NextPage: "p3"},
		"p3": {Data: []string{"e"}},
	}
	fetch := func(cursor string) (*pagination.CursorPage[string], error) {
		fmt.Printf("fetch %q\n", cursor)
		return pages[cursor], nil
	}
	for s, err := range pagination.Cursor("", fetch) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(*s)
		if *s == "c" {
			break // page p3 is never fetched
		}
	}
	// Output:
	// fetch ""
	// a
	// b
	// fetch "p2"
	// c
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
