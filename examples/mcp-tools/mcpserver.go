package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes are what the MCP server knows.
var notes = []string{
	"Garden: plant the tomatoes after the last frost, in May.",
	"Car: the tyres are due for a change in October.",
	"Garden: the roses need pruning in March.",
}

type searchInput struct {
	Query string `json:"query" jsonschema:"a word to look for"`
}

// notesServer is a small MCP server with one tool, notes.search. It stands
// for a server of your own or a third party's.
func notesServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "notes.search", Description: "Finds the notes that mention a word."},
		func(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, any, error) {
			var found []string
			for _, n := range notes {
				if strings.Contains(strings.ToLower(n), strings.ToLower(in.Query)) {
					found = append(found, n)
				}
			}
			if len(found) == 0 {
				return nil, nil, fmt.Errorf("no note mentions %q", in.Query) // an error result the model reads
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(found, " ")}}}, nil, nil
		})
	return s
}
