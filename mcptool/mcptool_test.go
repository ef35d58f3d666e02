package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/mcptool"
	"github.com/agentplatform/agentplatform-go/tool"
)

func TestText(t *testing.T) {
	srv := newServer(nil)
	greet(srv)
	g := only(t, connect(t, srv))
	require.Equal(t, "greet", g.Name())
	require.Equal(t, "Greets someone by name.", g.Description())
	var schema map[string]any
	require.NoError(t, json.Unmarshal(g.InputSchema(), &schema))
	require.Equal(t, "object", schema["type"])
	require.Contains(t, schema["properties"], "name", "the server's input schema is kept")

	res := g.Run(ctx, json.RawMessage(`{"name": "Ada"}`))
	require.False(t, res.IsError)
	require.Equal(t, []tool.Block{tool.TextBlock{Text: "Hello, Ada"}}, res.Content)

	// The schema is checked before the server is called.
	res = g.Run(ctx, json.RawMessage(`{"name": 7}`))
	require.True(t, res.IsError)
}

func TestImage(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	srv := newServer(nil)
	rawTool(srv, "snapshot", &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "here it is"},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
		&mcp.ImageContent{MIMEType: "image/svg+xml", Data: []byte("<svg/>")},
	}})
	res := only(t, connect(t, srv)).Run(ctx, nil)
	require.False(t, res.IsError)
	require.Equal(t, []tool.Block{
		tool.TextBlock{Text: "here it is"},
		tool.ImageBlock{MediaType: "image/png", Data: png}, // decoded from the wire's base64
		tool.TextBlock{Text: "[image: image/svg+xml, 6 bytes, not shown: not a type the model can read]"},
	}, res.Content)
}

func TestOtherContentIsDescribed(t *testing.T) {
	size := int64(2048)
	srv := newServer(nil)
	rawTool(srv, "fetch", &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFFxxxx")},
		&mcp.ResourceLink{URI: "file:///report.pdf", Name: "report", MIMEType: "application/pdf", Size: &size, Description: "the Q3 report"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "buy milk"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///logo.bin", Blob: []byte{1, 2, 3}}},
	}})
	res := only(t, connect(t, srv)).Run(ctx, nil)
	require.False(t, res.IsError)
	require.Equal(t, []tool.Block{
		tool.TextBlock{Text: "[audio: audio/wav, 8 bytes, not included]"},
		tool.TextBlock{Text: `[resource link: file:///report.pdf, name "report", application/pdf, 2048 bytes: the Q3 report]`},
		tool.TextBlock{Text: "[embedded resource: file:///notes.txt, text/plain]\nbuy milk"},
		tool.TextBlock{Text: "[embedded resource: file:///logo.bin, 3 bytes of binary data, not included]"},
	}, res.Content)
}

func TestIsErrorIsAnErrorResult(t *testing.T) {
	srv := newServer(nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "withdraw", Description: "Withdraws money."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("insufficient funds")
		})
	res := only(t, connect(t, srv)).Run(ctx, nil)
	require.True(t, res.IsError)
	require.Equal(t, "insufficient funds", res.TextContent())
}

func TestStructuredContent(t *testing.T) {
	srv := newServer(nil)
	rawTool(srv, "stats", &mcp.CallToolResult{StructuredContent: map[string]any{"count": 3, "unit": "items"}})
	res := only(t, connect(t, srv)).Run(ctx, nil)
	require.False(t, res.IsError)
	require.JSONEq(t, `{"count": 3, "unit": "items"}`, res.TextContent(), "with no text, the structured content is the text")

	// With text of its own, the text is the result (servers repeat the
	// structured content there).
	srv = newServer(nil)
	rawTool(srv, "stats", &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "3 items"}},
		StructuredContent: map[string]any{"count": 3, "unit": "items"},
	})
	res = only(t, connect(t, srv)).Run(ctx, nil)
	require.Equal(t, []tool.Block{tool.TextBlock{Text: "3 items"}}, res.Content)
}

func TestProtocolErrorsAreErrorResults(t *testing.T) {
	srv := newServer(nil)
	greet(srv)
	cs := connect(t, srv)

	// A tool the server does not have.
	gone, err := mcptool.Tool(cs, &mcp.Tool{Name: "gone", Description: "Was removed."})
	require.NoError(t, err)
	res := gone.Run(ctx, nil)
	require.True(t, res.IsError)
	require.Contains(t, res.TextContent(), "MCP tool gone: ")
	require.Contains(t, res.TextContent(), `unknown tool "gone"`)

	// A closed connection.
	g := only(t, cs)
	require.NoError(t, cs.Close())
	res = g.Run(ctx, json.RawMessage(`{"name": "Ada"}`))
	require.True(t, res.IsError)
	require.Contains(t, res.TextContent(), "MCP tool greet: ")
	require.Contains(t, res.TextContent(), "closed")
}

func TestPaginationListsEveryTool(t *testing.T) {
	srv := newServer(&mcp.ServerOptions{PageSize: 2})
	var want []string
	for i := range 5 {
		name := fmt.Sprintf("tool_%d", i)
		want = append(want, name)
		rawTool(srv, name, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name}}})
	}
	cs := connect(t, srv)
	page, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page.Tools, 2, "the server pages its list")

	tools, err := mcptool.Tools(ctx, cs)
	require.NoError(t, err)
	var got []string
	for _, tt := range tools {
		got = append(got, tt.Name())
	}
	require.Equal(t, want, got)
	require.Equal(t, "tool_4", tools[4].Run(ctx, nil).TextContent())

	// A filter keeps some.
	tools, err = mcptool.Tools(ctx, cs, mcptool.WithFilter(func(t *mcp.Tool) bool { return t.Name == "tool_3" }))
	require.NoError(t, err)
	require.Len(t, tools, 1)
	require.Equal(t, "tool_3", tools[0].Name())
}

func TestCancellationCancelsTheMCPCall(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv := newServer(nil)
	srv.AddTool(&mcp.Tool{Name: "slow", Description: "Takes forever.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		})
	slow := only(t, connect(t, srv))

	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan tool.Result)
	go func() { done <- slow.Run(callCtx, nil) }()
	<-started
	cancel()
	res := <-done
	require.True(t, res.IsError)
	require.Contains(t, res.TextContent(), "context canceled")
	<-cancelled // the server's handler saw the cancellation
}

func TestNamesAreMapped(t *testing.T) {
	srv := newServer(nil)
	var called []string
	for _, name := range []string{"files.read v2", "ok-name"} {
		srv.AddTool(&mcp.Tool{Name: name, Description: "A tool.", InputSchema: map[string]any{"type": "object"}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				called = append(called, req.Params.Name)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			})
	}
	cs := connect(t, srv)
	tools, err := mcptool.Tools(ctx, cs)
	require.NoError(t, err)
	require.Equal(t, "files_read_v2", tools[0].Name())
	require.Equal(t, "ok-name", tools[1].Name())

	tools, err = mcptool.Tools(ctx, cs, mcptool.WithPrefix("fs"))
	require.NoError(t, err)
	require.Equal(t, "fs__files_read_v2", tools[0].Name())
	require.Equal(t, "fs__ok-name", tools[1].Name())
	require.Equal(t, "done", tools[0].Run(ctx, nil).TextContent())
	require.Equal(t, []string{"files.read v2"}, called, "the server is called by the tool's own name")
}

func TestUnmappableNamesAreReported(t *testing.T) {
	long := strings.Repeat("x", 127)
	srv := newServer(nil)
	for _, name := range []string{"a.b", "a_b", long, "fine"} {
		rawTool(srv, name, &mcp.CallToolResult{})
	}
	cs := connect(t, srv)
	tools, err := mcptool.Tools(ctx, cs, mcptool.WithPrefix("p"))
	require.Nil(t, tools)
	require.ErrorContains(t, err, `MCP tool "a_b": name: maps to "p__a_b", as MCP tool "a.b" does`)
	require.ErrorContains(t, err, `MCP tool "`+long+`": name "p__`+long+`": must be at most 128`)
	var te *mcptool.ToolError
	require.ErrorAs(t, err, &te)

	// Leaving them out is the caller's choice.
	tools, err = mcptool.Tools(ctx, cs, mcptool.WithPrefix("p"), mcptool.WithFilter(func(t *mcp.Tool) bool { return t.Name == "fine" || t.Name == "a.b" }))
	require.NoError(t, err)
	require.Len(t, tools, 2)
}

func TestToolWithoutSchemaOrDescription(t *testing.T) {
	srv := newServer(nil)
	cs := connect(t, srv)
	bare, err := mcptool.Tool(cs, &mcp.Tool{Name: "bare"})
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object"}`, string(bare.InputSchema()))
	require.Equal(t, "The MCP tool bare.", bare.Description())

	titled, err := mcptool.Tool(cs, &mcp.Tool{Name: "titled", Title: "Titled tool", InputSchema: map[string]any{"type": "object"}})
	require.NoError(t, err)
	require.Equal(t, "Titled tool", titled.Description())

	_, err = mcptool.Tool(cs, &mcp.Tool{Name: "list", InputSchema: map[string]any{"type": "array"}})
	require.ErrorContains(t, err, `agentplatform: MCP tool "list": invalid parameter input_schema.type: must be object`)
	_, err = mcptool.Tool(nil, &mcp.Tool{Name: "x"})
	require.ErrorContains(t, err, "session")
}
