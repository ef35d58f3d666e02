package agenttoolset_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
)

func TestGlob(t *testing.T) {
	ts, dir := newToolset(t)
	for _, p := range []string{"d.go", "a/b/c.go", "a/x.txt", ".hidden/e.go"} {
		writeFile(t, filepath.Join(dir, p), "")
	}
	assert.Equal(t, ".hidden/e.go\na/b/c.go\nd.go\n", ok(t, run(t, ts, "glob", map[string]any{"pattern": "**/*.go"})))
	assert.Equal(t, "a/b/c.go\n", ok(t, run(t, ts, "glob", map[string]any{"pattern": "**/*.go", "path": "a"})))
	assert.Equal(t, "a/b/c.go\n", ok(t, run(t, ts, "glob", map[string]any{"pattern": "**/*.go", "path": filepath.Join(dir, "a")})))
	assert.Equal(t, "a/b\na/x.txt\n", ok(t, run(t, ts, "glob", map[string]any{"pattern": "a/*"})))
	assert.Equal(t, "a/b\na/b/c.go\na/x.txt\n", ok(t, run(t, ts, "glob", map[string]any{"pattern": "**", "path": "a"})))
	assert.Equal(t, `no paths match "*.rs"`, ok(t, run(t, ts, "glob", map[string]any{"pattern": "*.rs"})))

	for _, tc := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"pattern": "../*"}, `pattern "../*" must not contain a .. segment`},
		{map[string]any{"pattern": "/etc/*"}, `pattern "/etc/*" must be relative`},
		{map[string]any{"pattern": "a/["}, `pattern "a/[" is not a valid glob pattern`},
		{map[string]any{"pattern": ""}, "pattern must not be empty"},
		{map[string]any{"pattern": "*", "path": "d.go"}, `path "d.go" is not a directory`},
		{map[string]any{"pattern": "*", "path": "nope"}, `path "nope" does not exist`},
	} {
		assert.Contains(t, fails(t, run(t, ts, "glob", tc.input)), tc.want, "input %v", tc.input)
	}
}

func TestGlobOutputIsCapped(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxOutput(100))
	for i := range 50 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), "")
	}
	out := ok(t, run(t, ts, "glob", map[string]any{"pattern": "*.txt"}))
	assert.True(t, strings.HasPrefix(out, "f00.txt\nf01.txt\n"), out)
	assert.Contains(t, out, "[38 more matches not shown: narrow the pattern or path]")
	assert.NotContains(t, out, "f49.txt")
}

func TestGrep(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxFileSize(1000))
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\nneedle one\ngamma\n")
	writeFile(t, filepath.Join(dir, "sub", "b.go"), "package b\n// needle two\n")
	writeFile(t, filepath.Join(dir, "bin.dat"), "needle\x00binary")
	writeFile(t, filepath.Join(dir, "big.txt"), "needle\n"+strings.Repeat("x", 2000))
	writeFile(t, filepath.Join(dir, ".git", "config"), "needle in git\n")

	assert.Equal(t, "a.txt:2:needle one\nsub/b.go:2:// needle two\n[1 file(s) over the 1000-byte limit not searched]\n",
		ok(t, run(t, ts, "grep", map[string]any{"pattern": `needle \w+`})))
	assert.Equal(t, "sub/b.go:1:package b\n",
		ok(t, run(t, ts, "grep", map[string]any{"pattern": "^package", "path": "sub"})))
	assert.Equal(t, "a.txt:1:alpha\n",
		ok(t, run(t, ts, "grep", map[string]any{"pattern": "^al", "path": filepath.Join(dir, "a.txt")})))
	assert.Equal(t, "no lines match \"zebra\"\n[1 file(s) over the 1000-byte limit not searched]\n",
		ok(t, run(t, ts, "grep", map[string]any{"pattern": "zebra"})))

	assert.Contains(t, fails(t, run(t, ts, "grep", map[string]any{"pattern": "a("})),
		"pattern is not a valid regular expression (Go RE2 syntax)")
	assert.Contains(t, fails(t, run(t, ts, "grep", map[string]any{"pattern": "a", "path": "nope"})),
		`path "nope" does not exist`)
}

func TestGrepOutputIsCapped(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxOutput(100))
	writeFile(t, filepath.Join(dir, "many.txt"), strings.Repeat("match\n", 100))
	out := ok(t, run(t, ts, "grep", map[string]any{"pattern": "match"}))
	assert.True(t, strings.HasPrefix(out, "many.txt:1:match\nmany.txt:2:match\n"), out)
	assert.Contains(t, out, "[output cut at 100 bytes: narrow the pattern or path]")
	assert.NotContains(t, out, "many.txt:100:")
}
