package skills_test

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// manifest is a SKILL.md with name and description.
func manifest(name, description string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n# " + name + "\n"
}

// skillFS is a skill's files: SKILL.md with name and description, plus
// extra path → content.
func skillFS(name, description string, extra ...string) fstest.MapFS {
	m := fstest.MapFS{"SKILL.md": {Data: []byte(manifest(name, description))}}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = &fstest.MapFile{Data: []byte(extra[i+1])}
	}
	return m
}

// skillDir writes files (path → content) under dir/name and returns that
// directory.
func skillDir(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(content), 0o644))
	}
	return dir
}

// zipOf is a zip archive of path → content pairs, in order.
func zipOf(t *testing.T, pairs ...string) *bytes.Reader {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(pairs); i += 2 {
		w, err := zw.Create(pairs[i])
		require.NoError(t, err)
		_, err = w.Write([]byte(pairs[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return bytes.NewReader(buf.Bytes())
}

// unzip reads an archive into path → content.
func unzip(t *testing.T, r io.Reader) map[string]string {
	t.Helper()
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		out[f.Name] = string(b)
	}
	return out
}

// countingFS counts the opens of each file of an fs.FS and the bytes read.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func newCountingFS(fsys fs.FS) *countingFS { return &countingFS{FS: fsys, opens: map[string]int{}} }

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err == nil {
		if st, serr := f.Stat(); serr == nil && st.Mode().IsRegular() {
			c.mu.Lock()
			c.opens[name]++
			c.mu.Unlock()
		}
	}
	return f, err
}

func (c *countingFS) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[name]
}

// growingFS is a skill whose x.txt, once listed, gives more bytes than its
// listing said: a file that changed after the upload was checked.
type growingFS struct{ fstest.MapFS }

func (g *growingFS) Open(name string) (fs.File, error) {
	if name == "x.txt" {
		return fstest.MapFS{"x.txt": {Data: []byte("much longer than before")}}.Open(name)
	}
	return g.MapFS.Open(name)
}
