package agenttoolset_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
)

func TestReadNumbersLines(t *testing.T) {
	ts, dir := newToolset(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "one\ntwo\nthree\nfour\n")

	assert.Equal(t, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n",
		ok(t, run(t, ts, "read", map[string]any{"file_path": "f.txt"})))
	assert.Equal(t, "     2\ttwo\n     3\tthree\n",
		ok(t, run(t, ts, "read", map[string]any{"file_path": "f.txt", "view_range": []int{2, 3}})))
	for _, end := range []int{0, -1} {
		assert.Equal(t, "     3\tthree\n     4\tfour\n",
			ok(t, run(t, ts, "read", map[string]any{"file_path": "f.txt", "view_range": []int{3, end}})))
	}
	assert.Equal(t, "     4\tfour\n",
		ok(t, run(t, ts, "read", map[string]any{"file_path": "f.txt", "view_range": []int{4, 99}})))
	assert.Contains(t, ok(t, run(t, ts, "read", map[string]any{"file_path": "f.txt", "view_range": []int{9, 10}})),
		"no lines in view_range: the file has 4 lines")

	writeFile(t, filepath.Join(dir, "nonl.txt"), "a\nb")
	assert.Equal(t, "     1\ta\n     2\tb\n", ok(t, run(t, ts, "read", map[string]any{"file_path": "nonl.txt"})))
	writeFile(t, filepath.Join(dir, "empty.txt"), "")
	assert.Equal(t, "(the file is empty)", ok(t, run(t, ts, "read", map[string]any{"file_path": "empty.txt"})))
}

func TestReadRefuses(t *testing.T) {
	ts, dir := newToolset(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "one\ntwo\n")
	writeFile(t, filepath.Join(dir, "bin"), "ELF\x00\x01\x02")
	writeFile(t, filepath.Join(dir, "sub", "x"), "")

	for _, tc := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"file_path": "f.txt", "view_range": []int{1}}, "view_range must hold exactly 2 numbers"},
		{map[string]any{"file_path": "f.txt", "view_range": []int{1, 2, 3}}, "view_range must hold exactly 2 numbers"},
		{map[string]any{"file_path": "f.txt", "view_range": []int{0, 2}}, "start_line must be 1 or more"},
		{map[string]any{"file_path": "f.txt", "view_range": []int{3, 2}}, "end_line 2 must not be before start_line 3"},
		{map[string]any{"file_path": "f.txt", "view_range": []float64{1.5, 2}}, "view_range[0] must be a whole number"},
		{map[string]any{"file_path": "bin"}, `"bin" looks like a binary file`},
		{map[string]any{"file_path": "sub"}, `"sub" is a directory`},
		{map[string]any{"file_path": "missing"}, `"missing" does not exist`},
		{map[string]any{"file_path": ""}, "file_path must not be empty"},
	} {
		assert.Contains(t, fails(t, run(t, ts, "read", tc.input)), tc.want, "input %v", tc.input)
	}
}

func TestReadSizeCap(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxFileSize(100))
	big := strings.Repeat("0123456789\n", 20) // 220 bytes, 20 lines
	writeFile(t, filepath.Join(dir, "big.txt"), big)

	msg := fails(t, run(t, ts, "read", map[string]any{"file_path": "big.txt"}))
	assert.Contains(t, msg, `"big.txt" is 220 bytes, over the 100-byte limit: read it in parts with view_range`)
	assert.NotContains(t, msg, "0123456789")

	// A part of a big file can be read; the part itself is capped.
	assert.Equal(t, "    19\t0123456789\n    20\t0123456789\n",
		ok(t, run(t, ts, "read", map[string]any{"file_path": "big.txt", "view_range": []int{19, 0}})))
	assert.Contains(t, fails(t, run(t, ts, "read", map[string]any{"file_path": "big.txt", "view_range": []int{1, 15}})),
		"over the 100-byte limit: narrow view_range")

	writeFile(t, filepath.Join(dir, "long.txt"), "short\n"+strings.Repeat("x", 1000)+"\nlast\n")
	assert.Equal(t, "     3\tlast\n",
		ok(t, run(t, ts, "read", map[string]any{"file_path": "long.txt", "view_range": []int{3, 3}})))
	assert.Contains(t, fails(t, run(t, ts, "read", map[string]any{"file_path": "long.txt", "view_range": []int{2, 2}})),
		"over the 100-byte limit")
}

func TestWrite(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxFileSize(10))

	assert.Equal(t, "created a/b/c.txt (5 bytes)",
		ok(t, run(t, ts, "write", map[string]any{"file_path": "a/b/c.txt", "content": "hello"})))
	assert.Equal(t, "hello", readFile(t, filepath.Join(dir, "a", "b", "c.txt")))

	assert.Equal(t, "overwrote a/b/c.txt (3 bytes)",
		ok(t, run(t, ts, "write", map[string]any{"file_path": "a/b/c.txt", "content": "bye"})))
	assert.Equal(t, "bye", readFile(t, filepath.Join(dir, "a", "b", "c.txt")))

	assert.Contains(t, fails(t, run(t, ts, "write", map[string]any{"file_path": "big", "content": "01234567890"})),
		"content is 11 bytes, over the 10-byte limit")
	assert.NoFileExists(t, filepath.Join(dir, "big"))
	assert.Contains(t, fails(t, run(t, ts, "write", map[string]any{"file_path": "a", "content": "x"})),
		"not a regular file")
	assert.Contains(t, fails(t, run(t, ts, "write", map[string]any{"file_path": ".", "content": "x"})),
		"the working directory itself")
}

func TestEdit(t *testing.T) {
	ts, dir := newToolset(t)
	path := filepath.Join(dir, "f.go")
	writeFile(t, path, "a := 1\nb := 1\nc := 2\n")

	assert.Equal(t, "edited f.go: 1 replacement(s)",
		ok(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": "c := 2", "new_string": "c := 3"})))
	assert.Equal(t, "a := 1\nb := 1\nc := 3\n", readFile(t, path))

	msg := fails(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": ":= 1", "new_string": ":= 5"}))
	assert.Contains(t, msg, `old_string occurs 2 times in "f.go"`)
	assert.Contains(t, msg, "replace_all")
	assert.Equal(t, "a := 1\nb := 1\nc := 3\n", readFile(t, path), "a refused edit changes nothing")

	assert.Equal(t, "edited f.go: 2 replacement(s)",
		ok(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": ":= 1", "new_string": ":= 5", "replace_all": true})))
	assert.Equal(t, "a := 5\nb := 5\nc := 3\n", readFile(t, path))

	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": "zzz", "new_string": "y"})),
		`old_string was not found in "f.go"`)
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": "", "new_string": "y"})),
		"old_string must not be empty")
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "f.go", "old_string": "a", "new_string": "a"})),
		"the same")
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "nope", "old_string": "a", "new_string": "b"})),
		`"nope" does not exist`)
}

func TestEditSizeCap(t *testing.T) {
	ts, dir := newToolset(t, agenttoolset.WithMaxFileSize(10))
	writeFile(t, filepath.Join(dir, "big"), "aaaaaaaaaaaa")
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "big", "old_string": "a", "new_string": "b", "replace_all": true})),
		`"big" is 12 bytes, over the 10-byte limit`)
	assert.Equal(t, "aaaaaaaaaaaa", readFile(t, filepath.Join(dir, "big")))

	writeFile(t, filepath.Join(dir, "small"), "aaaaa")
	assert.Contains(t, fails(t, run(t, ts, "edit", map[string]any{"file_path": "small", "old_string": "a", "new_string": "bbb", "replace_all": true})),
		"the edited file would be 15 bytes, over the 10-byte limit")
	require.Equal(t, "aaaaa", readFile(t, filepath.Join(dir, "small")))
}
