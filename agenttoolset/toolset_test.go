package agenttoolset_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
)

func TestToolsNamesAndSchemas(t *testing.T) {
	ts, dir := newToolset(t)
	require.Equal(t, dir, ts.Dir())
	var names []string
	for _, tl := range ts.Tools() {
		names = append(names, tl.Name())
		assert.NotEmpty(t, tl.Description())
	}
	assert.Equal(t, []string{"bash", "read", "write", "edit", "glob", "grep"}, names)

	// Inputs are schema-checked before a tool runs.
	assert.Contains(t, fails(t, run(t, ts, "read", map[string]any{})), "file_path")
	assert.Contains(t, fails(t, run(t, ts, "write", map[string]any{"file_path": "a"})), "content")
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "a", "old_string": 1, "new_string": "b"})), "old_string")
	assert.Contains(t, fails(t, run(t, ts, "glob", map[string]any{"path": "."})), "pattern")
	assert.Contains(t, fails(t, run(t, ts, "bash", map[string]any{"timeout_ms": "soon"})), "timeout_ms")
}

func TestNewValidates(t *testing.T) {
	dir := t.TempDir()
	_, err := agenttoolset.New(filepath.Join(dir, "missing"))
	assert.ErrorContains(t, err, "dir")
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = agenttoolset.New(file)
	assert.ErrorContains(t, err, "must be a directory")
	_, err = agenttoolset.New("")
	assert.ErrorContains(t, err, "dir must not be empty")

	for _, tc := range []struct {
		opt  agenttoolset.Option
		want string
	}{
		{agenttoolset.WithMaxFileSize(0), "WithMaxFileSize: must be positive"},
		{agenttoolset.WithMaxOutput(10), "WithMaxOutput: must be at least 100"},
		{agenttoolset.WithBashTimeout(0), "WithBashTimeout"},
		{agenttoolset.WithBashTimeout(agenttoolset.MaxBashTimeout + 1), "WithBashTimeout"},
		{agenttoolset.WithEnv("NOVALUE"), `WithEnv: entry 0 (name "NOVALUE") must have the form NAME=value`},
		{agenttoolset.WithEnv("=secret"), "must have the form NAME=value"},
	} {
		_, err := agenttoolset.New(dir, tc.opt)
		assert.ErrorContains(t, err, tc.want)
	}
	// An entry's value never shows in the error: it may be a secret.
	_, err = agenttoolset.New(dir, agenttoolset.WithEnv("=hunter2"))
	assert.NotContains(t, err.Error(), "hunter2")
}

func TestClosedToolsetRefuses(t *testing.T) {
	dir := t.TempDir()
	ts, err := agenttoolset.New(dir)
	require.NoError(t, err)
	require.NoError(t, ts.Close())
	require.NoError(t, ts.Close(), "Close is idempotent")
	assert.Contains(t, fails(t, run(t, ts, "bash", map[string]any{"command": "true"})), "closed")
	fails(t, run(t, ts, "write", map[string]any{"file_path": "a", "content": "x"}))
	assert.NoFileExists(t, filepath.Join(dir, "a"))
}
