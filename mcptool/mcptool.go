package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Tools lists every tool of the MCP server behind cs, all pages of the
// list, and returns each that opts keep (WithFilter) as a tool.Tool that
// calls it through cs.
//
// A tool that cannot become a tool.Tool — its name cannot be mapped to the
// API's rule even with underscores, two names map to the same one, or its
// input schema is not an object schema — is not left out silently: Tools
// then returns no tools and an error naming each such tool and why (each
// a *ToolError, joined). Leave them out with WithFilter, or tell them apart
// with WithPrefix. An error listing the tools is returned as is.
func Tools(ctx context.Context, cs *mcp.ClientSession, opts ...Option) ([]tool.Tool, error) {
	if cs == nil {
		return nil, &apierror.ValidationError{Field: "session", Rule: "must not be nil"}
	}
	cfg := newConfig(opts)
	var (
		out    []tool.Tool
		errs   []error
		byName = map[string]string{} // API name → MCP name
	)
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("agentplatform: listing MCP tools: %w", err)
		}
		if t == nil || (cfg.filter != nil && !cfg.filter(t)) {
			continue
		}
		tt, err := newTool(cs, t, cfg)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, ok := byName[tt.Name()]; ok {
			errs = append(errs, &ToolError{Tool: t.Name, Err: fmt.Errorf("name: maps to %q, as MCP tool %q does", tt.Name(), other)})
			continue
		}
		byName[tt.Name()] = t.Name
		out = append(out, tt)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Tool returns the MCP tool t as a tool.Tool that calls it through cs; t
// is one of the tools cs lists (cs.ListTools or cs.Tools). The error is a
// *ToolError when t's name or schema cannot be used.
func Tool(cs *mcp.ClientSession, t *mcp.Tool, opts ...Option) (tool.Tool, error) {
	if cs == nil {
		return tool.Tool{}, &apierror.ValidationError{Field: "session", Rule: "must not be nil"}
	}
	if t == nil {
		return tool.Tool{}, &apierror.ValidationError{Field: "tool", Rule: "must not be nil"}
	}
	return newTool(cs, t, newConfig(opts))
}

// ToolError says why the MCP tool named Tool cannot be used as a
// tool.Tool.
type ToolError struct {
	Tool string // the tool's name on the MCP server
	Err  error
}

func (e *ToolError) Error() string {
	return fmt.Sprintf("agentplatform: MCP tool %q: %s", e.Tool, strings.TrimPrefix(e.Err.Error(), "agentplatform: "))
}

func (e *ToolError) Unwrap() error { return e.Err }

func newTool(cs *mcp.ClientSession, t *mcp.Tool, cfg config) (tool.Tool, error) {
	name, err := apiName(cfg.prefix, t.Name)
	if err != nil {
		return tool.Tool{}, &ToolError{Tool: t.Name, Err: err}
	}
	schema, err := inputSchema(t.InputSchema)
	if err != nil {
		return tool.Tool{}, &ToolError{Tool: t.Name, Err: err}
	}
	mcpName := t.Name
	tt, err := tool.NewRaw(name, description(t), schema, func(ctx context.Context, input json.RawMessage) (tool.Result, error) {
		return call(ctx, cs, mcpName, input), nil
	})
	if err != nil {
		return tool.Tool{}, &ToolError{Tool: t.Name, Err: err}
	}
	return tt, nil
}

// inputSchema is the tool's input schema as the server gave it, or an
// object schema with no constraints when it gave none.
func inputSchema(s any) (json.RawMessage, error) {
	if s == nil {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("input_schema: %w", err)
	}
	if string(raw) == "null" || string(raw) == "{}" {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	return raw, nil
}

// description is what the model reads about the tool. The API requires
// one; MCP does not, so a tool without one is described by its title or
// its name.
func description(t *mcp.Tool) string {
	if d := strings.TrimSpace(t.Description); d != "" {
		return t.Description
	}
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	if title != "" {
		return title
	}
	return "The MCP tool " + t.Name + "."
}

// call runs the tool on the MCP server. Every failure, including one of
// the protocol (an unknown tool, a closed connection, ctx ending), is an
// error result with its text, so that the model reads it.
func call(ctx context.Context, cs *mcp.ClientSession, name string, input json.RawMessage) tool.Result {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: input})
	if err != nil {
		return tool.Errorf("MCP tool %s: %v", name, err)
	}
	if res.NeedsInput() {
		return tool.Errorf("MCP tool %s: the server asked for more input, which this client cannot give", name)
	}
	return result(res)
}
