package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/tool"
)

type lookupInput struct {
	OrderID string `json:"order_id" jsonschema:"the order's id"`
	Verbose bool   `json:"verbose,omitempty"`
}

func lookup(t *testing.T) tool.Tool {
	t.Helper()
	return tool.Must(tool.New("lookup_order", "Look up an order.",
		func(_ context.Context, in lookupInput) (tool.Result, error) {
			switch in.OrderID {
			case "boom":
				panic("database on fire")
			case "missing":
				return tool.Result{}, errors.New("no such order")
			}
			return tool.JSON(map[string]string{"id": in.OrderID, "status": "shipped"})
		}))
}

func TestSchemaIsGeneratedFromTheInputType(t *testing.T) {
	lk := lookup(t)
	require.Equal(t, "lookup_order", lk.Name())
	require.Equal(t, "Look up an order.", lk.Description())
	var schema map[string]any
	require.NoError(t, json.Unmarshal(lk.InputSchema(), &schema))
	require.Equal(t, "object", schema["type"])
	require.Equal(t, []any{"order_id"}, schema["required"])
	props := schema["properties"].(map[string]any)
	require.Equal(t, "the order's id", props["order_id"].(map[string]any)["description"])
	require.Equal(t, "boolean", props["verbose"].(map[string]any)["type"])
}

func TestRunTurnsEveryFailureIntoAnErrorResult(t *testing.T) {
	lk := lookup(t)
	ctx := context.Background()
	cases := []struct {
		name, input, want string
		isError           bool
	}{
		{"ok", `{"order_id":"1234"}`, `{"id":"1234","status":"shipped"}`, false},
		{"function error", `{"order_id":"missing"}`, "no such order", true},
		{"missing required field", `{}`, "input does not match the schema", true},
		{"wrong type", `{"order_id":7}`, "input does not match the schema", true},
		{"unknown field", `{"order_id":"1","x":1}`, "input does not match the schema", true},
		{"not JSON", `{`, "input is not valid JSON", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := lk.Run(ctx, json.RawMessage(tc.input))
			require.Equal(t, tc.isError, res.IsError)
			require.Contains(t, res.TextContent(), tc.want)
		})
	}
}

func TestToolsWithoutArgumentsAcceptNoInput(t *testing.T) {
	now := tool.Must(tool.New("now", "The time.", func(context.Context, struct{}) (tool.Result, error) {
		return tool.Text("noon"), nil
	}))
	for _, input := range []string{"", "{}"} {
		res := now.Run(context.Background(), json.RawMessage(input))
		require.False(t, res.IsError, "input %q: %s", input, res.TextContent())
		require.Equal(t, "noon", res.TextContent())
	}
}

func TestDefinitionRules(t *testing.T) {
	fn := func(context.Context, lookupInput) (tool.Result, error) { return tool.Text(""), nil }
	for _, tc := range []struct{ name, description, field string }{
		{"", "d", "name"},
		{strings.Repeat("a", 129), "d", "name"},
		{"has space", "d", "name"},
		{"ok-name_1", "", "description"},
	} {
		_, err := tool.New(tc.name, tc.description, fn)
		var verr *apierror.ValidationError
		require.ErrorAs(t, err, &verr, "%q", tc.name)
		require.Equal(t, tc.field, verr.Field)
	}
	_, err := tool.New(strings.Repeat("a", 128), "d", fn)
	require.NoError(t, err)
	_, err = tool.New("n", "d", func(context.Context, string) (tool.Result, error) { return tool.Result{}, nil })
	require.ErrorContains(t, err, "must be a struct")
	_, err = tool.New[lookupInput]("n", "d", nil)
	require.Error(t, err)
	require.Panics(t, func() { tool.Must(tool.New[lookupInput]("", "d", fn)) })
}

func TestRawSchemaTools(t *testing.T) {
	echo, err := tool.NewRaw("echo", "Echo the text.",
		json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		func(_ context.Context, in json.RawMessage) (tool.Result, error) { return tool.Text(string(in)), nil })
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`, string(echo.InputSchema()))
	res := echo.Run(context.Background(), json.RawMessage(`{"text":"hi"}`))
	require.False(t, res.IsError)
	require.True(t, echo.Run(context.Background(), json.RawMessage(`{}`)).IsError)

	_, err = tool.NewRaw("bad", "d", json.RawMessage(`{"type":"string"}`), func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Result{}, nil })
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = tool.NewRaw("bad", "d", json.RawMessage(`[`), func(context.Context, json.RawMessage) (tool.Result, error) { return tool.Result{}, nil })
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

// The SDK's own wire types keep unknown members in a field tagged
// `json:",embed"`; as a tool's input such a type must take the inputs the
// model writes, with no member named after that field.
func TestNewWithAWireTypeAsInput(t *testing.T) {
	bash := tool.Must(tool.New("bash", "Run a command.", func(_ context.Context, in agents.BashInput) (tool.Result, error) {
		return tool.Text("ran " + in.Command + " " + string(in.Extra["cwd"])), nil
	}))
	require.NotContains(t, string(bash.InputSchema()), "Extra")
	res := bash.Run(context.Background(), json.RawMessage(`{"command":"ls","cwd":"/tmp"}`))
	require.False(t, res.IsError, res.TextContent())
	require.Equal(t, `ran ls "/tmp"`, res.TextContent())
}
