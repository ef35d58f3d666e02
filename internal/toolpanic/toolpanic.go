// Package toolpanic carries, in a context, where the stack of a tool's
// panic goes. The result of a panicking tool reaches the model and the
// session's history, so it says only that the tool panicked and with what
// value; the stack, with the build machine's source paths, is for the
// application's logs. The tool runner and the Messages tool loop set a
// handler that logs to their logger; tool.Tool.Run reports to it.
//
// This is internal plumbing: it adds no public API.
package toolpanic

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler receives a tool's panic: the tool's name, the value passed to
// panic and the panicking goroutine's stack. ctx is the tool's context.
type Handler func(ctx context.Context, tool string, value any, stack []byte)

type key struct{}

// WithHandler returns ctx carrying h, which Report calls.
func WithHandler(ctx context.Context, h Handler) context.Context {
	return context.WithValue(ctx, key{}, h)
}

// Report hands a tool's panic to ctx's handler; without one, it logs it
// to slog.Default at error level, so that the stack of a bug is never
// lost.
func Report(ctx context.Context, tool string, value any, stack []byte) {
	if h, ok := ctx.Value(key{}).(Handler); ok && h != nil {
		h(ctx, tool, value, stack)
		return
	}
	slog.Default().ErrorContext(ctx, "agentplatform: tool panicked", Attrs(tool, value, stack)...)
}

// Result is the text of a panicking tool's error result: the tool and the
// panic's value, never the stack.
func Result(tool string, value any) string {
	return fmt.Sprintf("tool %s panicked: %v", tool, value)
}

// Attrs are the log attributes of a panic.
func Attrs(tool string, value any, stack []byte) []any {
	return []any{"tool", tool, "panic", fmt.Sprint(value), "stack", string(stack)}
}
