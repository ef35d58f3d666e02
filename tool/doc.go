// Package tool defines client-side tools: Go functions the model can call.
//
// The same Tool values serve the Messages tool loop (messages) and the
// session tool runner (toolrunner): define a tool once, from a function
// with a typed input, and its JSON Schema is generated from the input type.
//
//	type LookupInput struct {
//		OrderID string `json:"order_id" jsonschema:"the order's id, e.g. 1234"`
//	}
//
//	var lookup = tool.Must(tool.New("lookup_order", "Look up an order by its id.",
//		func(ctx context.Context, in LookupInput) (tool.Result, error) {
//			order, err := orders.Find(ctx, in.OrderID)
//			if err != nil {
//				return tool.Result{}, err // the model reads it as an error result
//			}
//			return tool.JSON(order)
//		}))
//
// Run decodes the model's input, checks it against the schema, calls the
// function and turns a returned error, or a panic, into an error result
// that the model sees (is_error), so one broken call never stops the
// conversation. A panic's result names only the tool and the panic's
// value; its stack goes to the log, not to the model (see Tool.Run).
//
// To use a tool with an agent, declare it with agents.FromTools and let a
// toolrunner.Runner answer its calls; to use it with a model directly, pass
// it to client.Messages.RunTools.
package tool
