// Command mcp-tools lets the model call the tools of an MCP (Model Context
// Protocol) server through the Messages API. The program connects to the
// server with the official MCP Go SDK, turns its tools into tool.Tool
// values with mcptool.Tools, and hands them to RunTools, as it would its
// own Go functions.
//
//	go run ./examples/mcp-tools
//
// The MCP server is a small one in this process (mcpserver.go), reached
// over an in-memory transport; a program of yours would connect to its
// server with mcp.CommandTransport (a server started as a subprocess,
// over stdio) or mcp.StreamableClientTransport (one over HTTP).
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, whose model is a deterministic stand-in: it calls the
// tools a prompt names, with the JSON written after the name as input. With
// VENDOR_API_KEY set it calls the API at VENDOR_BASE_URL.
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/mcptool"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("mcp-tools: ", err)
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

	// Connect to the MCP server. The session must stay open while its
	// tools are used.
	cs, stop, err := startMCPServer(ctx)
	if err != nil {
		return err
	}
	defer stop()
	defer cs.Close()

	// Its tools, named notes__<name>: the prefix keeps them apart from the
	// tools of other servers, and characters the API does not allow in a
	// name (the dot of notes.search) become underscores.
	tools, err := mcptool.Tools(ctx, cs, mcptool.WithPrefix("notes"))
	if err != nil {
		return err
	}
	fmt.Println("MCP tools:")
	for _, t := range tools {
		fmt.Printf("  %-24s %s\n", t.Name(), t.Description())
	}

	res, err := client.Messages.RunTools(ctx, messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 512,
		Messages: []messages.MessageParam{messages.UserText(
			`What did I write about the garden? Call notes__notes_search {"query": "garden"} and answer in one sentence.`)},
	}, tools, messages.ToolLoop{MaxIterations: 5})
	if err != nil {
		return err
	}
	fmt.Printf("RunTools: %d model calls. The conversation:\n", res.Iterations)
	for _, m := range res.Messages {
		printMessage(m)
	}
	return nil
}

// startMCPServer starts the notes server in this process and connects a
// client session to it. stop waits for the server's end of the
// connection, once the session is closed.
func startMCPServer(ctx context.Context) (cs *mcp.ClientSession, stop func(), err error) {
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := notesServer().Connect(ctx, serverEnd, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "mcp-tools-example", Version: "v1.0.0"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		_ = ss.Close()
		return nil, nil, err
	}
	return cs, func() { _ = ss.Wait() }, nil
}

// printMessage prints one message of the conversation, a line per block.
func printMessage(m messages.MessageParam) {
	blocks, ok := m.Content.(messages.Blocks)
	if !ok { // plain text
		fmt.Printf("  %-10s %s\n", m.Role+":", m.Content)
		return
	}
	for _, b := range blocks {
		switch b := b.(type) {
		case messages.TextBlock:
			fmt.Printf("  %-10s %s\n", m.Role+":", b.Text)
		case messages.ToolUseBlock:
			fmt.Printf("  %-10s calls %s %s\n", m.Role+":", b.Name, b.Input)
		case messages.ToolResultBlock:
			fmt.Printf("  %-10s tool result: %s\n", m.Role+":", resultText(b.Content))
		}
	}
}

// resultText is the text of a tool result's content.
func resultText(c messages.Content) string {
	blocks, ok := c.(messages.Blocks)
	if !ok {
		return fmt.Sprint(c)
	}
	s := ""
	for _, b := range blocks {
		if t, ok := b.(messages.TextBlock); ok {
			s += t.Text
		}
	}
	return s
}
