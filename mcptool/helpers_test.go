package mcptool_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/mcptool"
	"github.com/agentplatform/agentplatform-go/tool"
)

var ctx = context.Background()

// newServer is an MCP server with no tools; opts may set a page size.
func newServer(opts *mcp.ServerOptions) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "v1.0.0"}, opts)
}

// connect connects a client to srv in memory and closes both ends when
// the test ends.
func connect(tb testing.TB, srv *mcp.Server) *mcp.ClientSession {
	tb.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(tb, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// rawTool adds a tool whose handler returns res as it is.
func rawTool(srv *mcp.Server, name string, res *mcp.CallToolResult) {
	srv.AddTool(&mcp.Tool{Name: name, Description: "Returns a fixed result.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
}

// only returns the one tool of cs's server.
func only(tb testing.TB, cs *mcp.ClientSession) tool.Tool {
	tb.Helper()
	tools, err := mcptool.Tools(ctx, cs)
	require.NoError(tb, err)
	require.Len(tb, tools, 1)
	return tools[0]
}

type greetInput struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// greet is a typed MCP tool: its handler's text is the result.
func greet(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets someone by name."},
		func(_ context.Context, _ *mcp.CallToolRequest, in greetInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + in.Name}}}, nil, nil
		})
}
