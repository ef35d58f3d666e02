package agents_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/tool"
)

type lookupInput struct {
	OrderID string `json:"order_id" jsonschema:"the order's id"`
	Verbose bool   `json:"verbose,omitempty"`
}

var lookupTool = tool.Must(tool.New("lookup_order", "Look up an order by its id.",
	func(context.Context, lookupInput) (tool.Result, error) { return tool.Text("shipped"), nil }))

var rawTool = tool.Must(tool.NewRaw("ping", "Answers pong.",
	json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"}},"required":["host"],"additionalProperties":false}`),
	func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Text("pong"), nil }))

// schemaOf is a definition's input schema as it goes on the wire.
func schemaOf(t *testing.T, ct agents.CustomTool) map[string]any {
	t.Helper()
	b, err := json.Marshal(ct.InputSchema)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func TestFromToolKeepsTheSchema(t *testing.T) {
	for _, tt := range []struct {
		tool tool.Tool
	}{{lookupTool}, {rawTool}} {
		t.Run(tt.tool.Name(), func(t *testing.T) {
			ct := agents.FromTool(tt.tool)
			require.Equal(t, tt.tool.Name(), ct.Name)
			require.Equal(t, tt.tool.Description(), ct.Description)
			var want map[string]any
			require.NoError(t, json.Unmarshal(tt.tool.InputSchema(), &want))
			if diff := cmp.Diff(want, schemaOf(t, ct)); diff != "" {
				t.Fatalf("schema (-tool +definition):\n%s", diff)
			}
		})
	}
	require.Equal(t, []string{"host"}, agents.FromTool(rawTool).InputSchema.Required)
	require.Equal(t, json.RawMessage("false"), agents.FromTool(rawTool).InputSchema.Extra["additionalProperties"])
}

func TestFromToolsRegistersTheToolsOnTheAgent(t *testing.T) {
	_, client := newClient(t)
	a, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:  "Support",
		Model: agents.ModelID(models.VendorHaiku55),
		Tools: agents.FromTools(lookupTool, rawTool),
	})
	require.NoError(t, err)
	require.Len(t, a.Tools, 2)
	for i, want := range []tool.Tool{lookupTool, rawTool} {
		got, ok := a.Tools[i].(agents.CustomTool)
		require.True(t, ok, "%T", a.Tools[i])
		require.Equal(t, want.Name(), got.Name)
		require.Equal(t, want.Description(), got.Description)
		var schema map[string]any
		require.NoError(t, json.Unmarshal(want.InputSchema(), &schema))
		if diff := cmp.Diff(schema, schemaOf(t, got)); diff != "" {
			t.Fatalf("%s: stored schema (-tool +agent):\n%s", want.Name(), diff)
		}
	}
}

func TestFromToolOfAZeroToolIsRefused(t *testing.T) {
	_, client := newClient(t)
	require.Equal(t, agents.CustomTool{}, agents.FromTool(tool.Tool{}))
	_, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:  "Support",
		Model: agents.ModelID(models.VendorHaiku55),
		Tools: agents.FromTools(tool.Tool{}),
	})
	require.ErrorContains(t, err, "tools[0].name")
	require.Empty(t, agents.FromTools())
}
