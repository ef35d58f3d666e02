package toolrunner

import "context"

// callKey is the context key under which a tool's context holds its call.
type callKey struct{}

// callInfo is what a tool's context tells about its call.
type callInfo struct{ sessionID, callID string }

// CallID returns the id of the tool call whose context ctx is (the
// agent.custom_tool_use or agent.tool_use event's id, the one the answer
// names), or "" when ctx is not a tool call's. It is stable across runner
// restarts: a call that is run again after a crash (see "Exactly once" in
// the package documentation) has the same id, so a tool with side effects
// can use it as an idempotency key.
func CallID(ctx context.Context) string {
	info, _ := ctx.Value(callKey{}).(callInfo)
	return info.callID
}

// SessionID returns the id of the session whose tool call ctx is the
// context of, or "" when ctx is not a tool call's: for a tool that serves
// many sessions, say one sandbox per session of a self-hosted environment.
func SessionID(ctx context.Context) string {
	info, _ := ctx.Value(callKey{}).(callInfo)
	return info.sessionID
}

func withCall(ctx context.Context, sessionID, callID string) context.Context {
	return context.WithValue(ctx, callKey{}, callInfo{sessionID: sessionID, callID: callID})
}
