package mcptool_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentplatform/agentplatform-go/mcptool"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

type countInput struct {
	Text string `json:"text" jsonschema:"the text to count the words of"`
}

// The model calls a tool of an MCP server through the Messages tool loop.
// The MCP server here runs in the process, over an in-memory transport; a
// program would connect to its server with mcp.CommandTransport (stdio) or
// mcp.StreamableClientTransport. The API server is platformtest, whose
// stand-in model calls the tools a prompt names; a program calls
// agentplatform.NewClient().
func Example() {
	ctx := context.Background()

	// An MCP server with one tool, whose name has a dot.
	server := mcp.NewServer(&mcp.Implementation{Name: "text-tools", Version: "v1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "text.count_words", Description: "Counts the words of a text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in countInput) (*mcp.CallToolResult, any, error) {
			n := len(strings.Fields(in.Text))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(n, " words")}}}, nil, nil
		})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1.0.0"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	// Its tools, named text__…: the dot becomes an underscore.
	tools, err := mcptool.Tools(ctx, cs, mcptool.WithPrefix("text"))
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println("tool:", t.Name())
	}

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

	res, err := client.Messages.RunTools(ctx, messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 512,
		Messages: []messages.MessageParam{messages.UserText(
			`How long is my motto? Use text__text_count_words {"text": "less is more"}`)},
	}, tools, messages.ToolLoop{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Message.Text())
	// Output:
	// tool: text__text_count_words
	// Result of text__text_count_words: 3 words
}
