package toolrunner

import "context"

type callKey struct{}

// callInfo is what a tool's context says about its call.
type callInfo struct {
	sessionID string
	callID    string
}

// CallID returns the id of the tool call whose context ctx is (the
// agent.custom_tool_use event's id, the one the answer names), or "" when
// ctx is not a tool call's. It is stable across runner restarts: a call
// that is run again after a crash (see "Exactly once" in the package
// documentation) has the same id, so a tool with side effects can use it
// as an idempotency key.
func CallID(ctx context.Context) string {
	if c, ok := ctx.Value(callKey{}).(callInfo); ok {
		return c.callID
	}
	return ""
}

// SessionID returns the session of the tool call whose context ctx is, or
// "" when ctx is not a tool call's.
func SessionID(ctx context.Context) string {
	if c, ok := ctx.Value(callKey{}).(callInfo); ok {
		return c.sessionID
	}
	return ""
}

func withCall(ctx context.Context, sessionID, callID string) context.Context {
	return context.WithValue(ctx, callKey{}, callInfo{sessionID: sessionID, callID: callID})
}
