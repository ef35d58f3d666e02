package tool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPanicResultHoldsNoStack: the model reads which tool panicked and
// with what value, never the stack; the stack goes to the log (here
// slog.Default, as nothing that runs the tool set a logger).
func TestPanicResultHoldsNoStack(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(prev)

	res := lookup(t).Run(context.Background(), json.RawMessage(`{"order_id":"boom"}`))
	require.True(t, res.IsError)
	require.Equal(t, "tool lookup_order panicked: database on fire", res.TextContent())

	out := buf.String()
	require.Contains(t, out, "level=ERROR")
	require.Contains(t, out, "tool=lookup_order")
	require.Contains(t, out, "goroutine ")
	require.Contains(t, out, "tool_test.go", "the stack points at the panic")
}
