package toolrunner

import "context"

// callKey is the context key under which a tool's context holds its call's
// id.
type callKey struct{}

// CallID returns the id of the tool call whose context ctx is (the
// agent.custom_tool_use event's id, the one the answer names), or "" when
// ctx is not a tool call's. It is stable across runner restarts: a call
// that is run again after a crash (see "Exactly once" in the package
// documentation) has the same id, so a tool with side effects can use it
// as an idempotency key.
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callKey{}).(string)
	return id
}

func withCall(ctx context.Context, callID string) context.Context {
	return context.WithValue(ctx, callKey{}, callID)
}
