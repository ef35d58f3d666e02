package agenttoolset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
)

const secret = "OUTSIDE-SECRET"

// escapeFixture is a toolset on dir, next to a directory outside it that
// holds a secret, with symbolic links in dir leading to both.
type escapeFixture struct {
	ts           *agenttoolset.Toolset
	dir, outside string
}

func newEscapeFixture(t testing.TB) escapeFixture {
	t.Helper()
	parent := t.TempDir()
	dir, outside := filepath.Join(parent, "work"), filepath.Join(parent, "outside")
	for _, d := range []string{dir, outside} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(secret+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(parent, "x"), []byte(secret+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "out.txt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "outdir")))
	require.NoError(t, os.Symlink("../outside/secret.txt", filepath.Join(dir, "relout.txt")))
	require.NoError(t, os.Symlink("in.txt", filepath.Join(dir, "link-in.txt")))
	ts, err := agenttoolset.New(dir)
	require.NoError(t, err)
	t.Cleanup(func() { ts.Close() })
	return escapeFixture{ts: ts, dir: dir, outside: outside}
}

func TestPathsInsideTheDirectory(t *testing.T) {
	f := newEscapeFixture(t)
	for _, p := range []string{"in.txt", "./sub/../in.txt", filepath.Join(f.dir, "in.txt"), "link-in.txt"} {
		assert.Equal(t, "     1\tinside\n", ok(t, run(t, f.ts, "read", map[string]any{"file_path": p})), p)
	}
	abs := filepath.Join(f.dir, "new", "abs.txt")
	ok(t, run(t, f.ts, "write", map[string]any{"file_path": abs, "content": "a"}))
	assert.Equal(t, "a", readFile(t, abs))
	ok(t, run(t, f.ts, "edit", map[string]any{"file_path": abs, "old_string": "a", "new_string": "b"}))
	assert.Equal(t, "b", readFile(t, abs))
}

func TestPathsOutsideTheDirectoryAreRefused(t *testing.T) {
	f := newEscapeFixture(t)
	for _, tc := range []struct{ path, want string }{
		{"../x", `file_path "../x" leads outside the working directory`},
		{"a/../../x", `leads outside the working directory`},
		{"/etc/passwd", `file_path "/etc/passwd" is outside the working directory`},
		{filepath.Join(f.outside, "secret.txt"), "is outside the working directory"},
		{"out.txt", `file_path "out.txt" leads outside the working directory (through a symbolic link or ..): refused`},
		{"relout.txt", `file_path "relout.txt" leads outside the working directory`},
		{"outdir/secret.txt", `file_path "outdir/secret.txt" leads outside the working directory`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			msg := fails(t, run(t, f.ts, "read", map[string]any{"file_path": tc.path}))
			assert.Contains(t, msg, tc.want)
			assert.NotContains(t, msg, secret)

			msg = fails(t, run(t, f.ts, "write", map[string]any{"file_path": tc.path, "content": "pwned"}))
			assert.Contains(t, msg, tc.want)

			msg = fails(t, run(t, f.ts, "edit", map[string]any{"file_path": tc.path, "old_string": secret, "new_string": "pwned"}))
			assert.Contains(t, msg, tc.want)
			assert.NotContains(t, msg, secret)
		})
	}
	assert.Equal(t, secret+"\n", readFile(t, filepath.Join(f.outside, "secret.txt")), "nothing outside was changed")

	// Nor is anything created outside, through a link to a directory.
	fails(t, run(t, f.ts, "write", map[string]any{"file_path": "outdir/new.txt", "content": "x"}))
	fails(t, run(t, f.ts, "write", map[string]any{"file_path": "outdir/deep/new.txt", "content": "x"}))
	entries, err := os.ReadDir(f.outside)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

func TestSearchDoesNotFollowLinksOutside(t *testing.T) {
	f := newEscapeFixture(t)

	out := ok(t, run(t, f.ts, "glob", map[string]any{"pattern": "**"}))
	assert.NotContains(t, out, "secret.txt")
	assert.Contains(t, out, "in.txt")
	assert.Equal(t, "no paths match \"outdir/*\"", ok(t, run(t, f.ts, "glob", map[string]any{"pattern": "outdir/*"})))
	assert.Contains(t, fails(t, run(t, f.ts, "glob", map[string]any{"pattern": "*", "path": "outdir"})),
		`path "outdir" leads outside the working directory`)
	assert.Contains(t, fails(t, run(t, f.ts, "glob", map[string]any{"pattern": "*", "path": ".."})),
		`path ".." leads outside the working directory`)
	assert.Contains(t, fails(t, run(t, f.ts, "glob", map[string]any{"pattern": "*", "path": f.outside})),
		"is outside the working directory")

	out = ok(t, run(t, f.ts, "grep", map[string]any{"pattern": "SECRET|inside"}))
	assert.Equal(t, "in.txt:1:inside\n", out, "links are not followed, not even to files inside")
	for _, p := range []string{"outdir", "out.txt", "../outside", f.outside} {
		msg := fails(t, run(t, f.ts, "grep", map[string]any{"pattern": "SECRET", "path": p}))
		assert.Contains(t, msg, "outside the working directory", p)
		assert.NotContains(t, msg, secret)
	}
}

// FuzzConfinement checks that no file_path, whatever it is, makes read
// return what lies outside the directory, or write change it.
func FuzzConfinement(f *testing.F) {
	for _, seed := range []string{
		"in.txt", "../x", "../outside/secret.txt", "/etc/passwd", "out.txt", "outdir/secret.txt",
		"outdir/../../x", "./outdir/./secret.txt", "relout.txt", "a/../../outside/secret.txt",
		"//x", "in.txt/..", "..", ".", "\x00", "outdir/", "link-in.txt",
	} {
		f.Add(seed)
	}
	fx := newEscapeFixture(f)
	f.Fuzz(func(t *testing.T, p string) {
		r := run(t, fx.ts, "read", map[string]any{"file_path": p})
		if strings.Contains(r.TextContent(), secret) {
			t.Fatalf("read %q returned the secret outside the directory: %s", p, r.TextContent())
		}
		r = run(t, fx.ts, "read", map[string]any{"file_path": filepath.Join(fx.dir, p)})
		if strings.Contains(r.TextContent(), secret) {
			t.Fatalf("read %q returned the secret outside the directory: %s", filepath.Join(fx.dir, p), r.TextContent())
		}
		run(t, fx.ts, "edit", map[string]any{"file_path": p, "old_string": secret, "new_string": "pwned", "replace_all": true})
		if got := readFile(t, filepath.Join(fx.outside, "secret.txt")); got != secret+"\n" {
			t.Fatalf("edit %q changed a file outside the directory", p)
		}
	})
}
