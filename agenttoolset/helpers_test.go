package agenttoolset_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
	"github.com/agentplatform/agentplatform-go/tool"
)

// waitTimeout bounds every wait of a test, so that a broken kill fails the
// test instead of hanging it; no test waits for it to pass.
const waitTimeout = time.Minute

// newToolset returns a toolset on a fresh directory, closed by the test's
// cleanup.
func newToolset(t *testing.T, opts ...agenttoolset.Option) (*agenttoolset.Toolset, string) {
	t.Helper()
	dir := t.TempDir()
	ts, err := agenttoolset.New(dir, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, ts.Close()) })
	return ts, dir
}

// run calls the tool named name, as a worker would, with input encoded as
// JSON.
func run(t *testing.T, ts *agenttoolset.Toolset, name string, input any) tool.Result {
	t.Helper()
	return runCtx(t, context.Background(), ts, name, input)
}

func runCtx(t *testing.T, ctx context.Context, ts *agenttoolset.Toolset, name string, input any) tool.Result {
	t.Helper()
	raw, err := json.Marshal(input)
	require.NoError(t, err)
	for _, tl := range ts.Tools() {
		if tl.Name() == name {
			return tl.Run(ctx, raw)
		}
	}
	t.Fatalf("no tool named %s", name)
	return tool.Result{}
}

// ok asserts a successful result and returns its text.
func ok(t *testing.T, r tool.Result) string {
	t.Helper()
	require.False(t, r.IsError, "unexpected error result: %s", r.TextContent())
	return r.TextContent()
}

// fails asserts an error result and returns its text.
func fails(t *testing.T, r tool.Result) string {
	t.Helper()
	require.True(t, r.IsError, "expected an error result, got: %s", r.TextContent())
	return r.TextContent()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
