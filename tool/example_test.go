package tool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/tool"
)

// The input type is the tool's contract with the model: its JSON Schema is
// generated from the struct, and Run checks the model's input against it
// before the function sees it.
func ExampleNew() {
	type lookupInput struct {
		OrderID string `json:"order_id" jsonschema:"the order's id, e.g. 1234"`
	}
	lookup, err := tool.New("lookup_order", "Look up an order by its id.",
		func(ctx context.Context, in lookupInput) (tool.Result, error) {
			if in.OrderID != "1234" {
				return tool.Errorf("no order %q", in.OrderID), nil
			}
			return tool.JSON(map[string]string{"id": in.OrderID, "status": "shipped"})
		})
	if err != nil {
		panic(err)
	}
	fmt.Println(lookup.Name(), string(lookup.InputSchema()))

	// What the messages tool loop and the toolrunner do with a call.
	ctx := context.Background()
	for _, input := range []string{`{"order_id":"1234"}`, `{"order_id":"9"}`, `{"id":1234}`} {
		res := lookup.Run(ctx, json.RawMessage(input))
		fmt.Printf("is_error=%v %s\n", res.IsError, res.TextContent())
	}
	// Output:
	// lookup_order {"type":"object","properties":{"order_id":{"type":"string","description":"the order's id, e.g. 1234"}},"required":["order_id"],"additionalProperties":false}
	// is_error=false {"id":"1234","status":"shipped"}
	// is_error=true no order "9"
	// is_error=true input does not match the schema: validating root: unexpected additional properties ["id"]
}

// A tool's result is text, JSON text, or an error the model reads and can
// act on; returning a Go error or panicking gives an error result too, so
// one broken call never ends the conversation.
func ExampleResult() {
	fmt.Println(tool.Text("15 degrees, sunny").TextContent())

	res, err := tool.JSON(struct {
		City string `json:"city"`
		Temp int    `json:"temp_c"`
	}{"Berlin", 15})
	fmt.Println(res.TextContent(), err)

	res = tool.Errorf("no city named %q; ask the user which one", "Springfield")
	fmt.Println(res.IsError, res.TextContent())

	failing := tool.Must(tool.New("flaky", "Fails.",
		func(ctx context.Context, in struct{}) (tool.Result, error) {
			return tool.Result{}, fmt.Errorf("weather service unavailable")
		}))
	res = failing.Run(context.Background(), json.RawMessage(`{}`))
	fmt.Println(res.IsError, res.TextContent())
	// Output:
	// 15 degrees, sunny
	// {"city":"Berlin","temp_c":15} <nil>
	// true no city named "Springfield"; ask the user which one
	// true weather service unavailable
}
