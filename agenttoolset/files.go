package agenttoolset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentplatform/agentplatform-go/tool"
)

// ReadInput is the input of the read tool.
type ReadInput struct {
	FilePath  string    `json:"file_path" jsonschema:"path of the file, relative to the working directory or absolute inside it"`
	ViewRange []float64 `json:"view_range,omitempty" jsonschema:"optional [start_line, end_line], 1-indexed and inclusive; end_line 0 or negative reads to the end of the file"`
}

// WriteInput is the input of the write tool.
type WriteInput struct {
	FilePath string `json:"file_path" jsonschema:"path of the file, relative to the working directory or absolute inside it"`
	Content  string `json:"content" jsonschema:"the whole new content of the file, which is overwritten"`
}

// EditInput is the input of the edit tool.
type EditInput struct {
	FilePath   string `json:"file_path" jsonschema:"path of the file, relative to the working directory or absolute inside it"`
	OldString  string `json:"old_string" jsonschema:"the exact text to replace; it must occur exactly once unless replace_all is set"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string"`
}

// binarySniff is how much of a file's start is checked for NUL bytes, the
// mark of a binary file.
const binarySniff = 8 << 10

func (t *Toolset) readTool() tool.Tool {
	return tool.Must(tool.New("read",
		"Read a text file in the working directory. Lines come numbered like cat -n; view_range [start_line, end_line] selects lines (1-indexed, inclusive; end_line 0 or negative means to the end). Files over the size limit can be read only in parts, with view_range.",
		t.read))
}

func (t *Toolset) writeTool() tool.Tool {
	return tool.Must(tool.New("write",
		"Write a file in the working directory, overwriting it if it exists and creating missing parent directories.",
		t.write))
}

func (t *Toolset) editTool() tool.Tool {
	return tool.Must(tool.New("edit",
		"Replace old_string with new_string in a file in the working directory. old_string must occur exactly once, unless replace_all is set.",
		t.edit))
}

// lineRange is a view_range checked: first and last line, 1-indexed, last
// math.MaxInt for the end of the file.
type lineRange struct{ first, last int }

func parseViewRange(v []float64) (lineRange, error) {
	if v == nil {
		return lineRange{1, math.MaxInt}, nil
	}
	if len(v) != 2 {
		return lineRange{}, fmt.Errorf("view_range must hold exactly 2 numbers, [start_line, end_line]; got %d", len(v))
	}
	for i, n := range v {
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.Abs(n) > 1<<50 {
			return lineRange{}, fmt.Errorf("view_range[%d] must be a whole number of reasonable size, got %v", i, n)
		}
	}
	r := lineRange{int(v[0]), int(v[1])}
	if r.first < 1 {
		return lineRange{}, fmt.Errorf("view_range start_line must be 1 or more (lines count from 1), got %d", r.first)
	}
	if r.last <= 0 {
		r.last = math.MaxInt
	}
	if r.last < r.first {
		return lineRange{}, fmt.Errorf("view_range end_line %d must not be before start_line %d (use 0 to read to the end)", r.last, r.first)
	}
	return r, nil
}

func (t *Toolset) read(_ context.Context, in ReadInput) (tool.Result, error) {
	lines, err := parseViewRange(in.ViewRange)
	if err != nil {
		return tool.Result{}, err
	}
	rel, err := t.resolve("file_path", in.FilePath)
	if err != nil {
		return tool.Result{}, err
	}
	info, err := t.regularFile(rel, in.FilePath)
	if err != nil {
		return tool.Result{}, err
	}
	if in.ViewRange == nil && info.Size() > t.maxFileSize {
		return tool.Result{}, fmt.Errorf("file_path %q is %d bytes, over the %d-byte limit: read it in parts with view_range, e.g. [1, 500]",
			in.FilePath, info.Size(), t.maxFileSize)
	}
	f, err := t.root.Open(rel)
	if err != nil {
		return tool.Result{}, fsError("file_path", in.FilePath, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, binarySniff)
	if head, _ := br.Peek(binarySniff); bytes.IndexByte(head, 0) >= 0 {
		return tool.Result{}, binaryError(in.FilePath)
	}
	var out strings.Builder
	budget := t.maxFileSize // bytes of file content left to keep
	n := 0                  // lines read
	for n < lines.last {
		keep := n+1 >= lines.first
		line, found, err := readLine(br, keep, &budget)
		if errors.Is(err, errOverBudget) {
			return tool.Result{}, fmt.Errorf("the lines selected from file_path %q are over the %d-byte limit: narrow view_range", in.FilePath, t.maxFileSize)
		}
		if err != nil {
			return tool.Result{}, fsError("file_path", in.FilePath, err)
		}
		if !found {
			break
		}
		n++
		if !keep {
			continue
		}
		if bytes.IndexByte(line, 0) >= 0 {
			return tool.Result{}, binaryError(in.FilePath)
		}
		fmt.Fprintf(&out, "%6d\t%s\n", n, strings.ToValidUTF8(string(line), "\uFFFD"))
	}
	if out.Len() == 0 {
		if n == 0 {
			return tool.Text("(the file is empty)"), nil
		}
		return tool.Text(fmt.Sprintf("(no lines in view_range: the file has %d lines)", n)), nil
	}
	return tool.Text(out.String()), nil
}

var errOverBudget = errors.New("over the size limit")

// readLine reads the next line of br and returns it without its newline
// when keep is set; found is false at the end of the file. A kept line
// counts against budget, and the read stops as soon as the budget is spent,
// so a huge line is refused before it is held; a line not kept is read
// through and dropped, never held whole.
func readLine(br *bufio.Reader, keep bool, budget *int64) (line []byte, found bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		found = found || len(frag) > 0
		if keep {
			if *budget -= int64(len(frag)); *budget < 0 {
				return nil, found, errOverBudget
			}
			line = append(line, frag...)
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return line, found, nil
		default:
			return nil, found, err
		}
	}
}

func binaryError(shown string) error {
	return fmt.Errorf("file_path %q looks like a binary file (it holds NUL bytes): read shows text files only", shown)
}

// regularFile checks that rel names a regular file (through symbolic links
// inside the directory) before it is opened: opening a FIFO or a device
// could block or never end.
func (t *Toolset) regularFile(rel, shown string) (os.FileInfo, error) {
	info, err := t.root.Stat(rel)
	if err != nil {
		return nil, fsError("file_path", shown, err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("file_path %q is a directory, not a file", shown)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("file_path %q is not a regular file", shown)
	}
	return info, nil
}

func (t *Toolset) write(_ context.Context, in WriteInput) (tool.Result, error) {
	if int64(len(in.Content)) > t.maxFileSize {
		return tool.Result{}, fmt.Errorf("content is %d bytes, over the %d-byte limit", len(in.Content), t.maxFileSize)
	}
	rel, err := t.resolve("file_path", in.FilePath)
	if err != nil {
		return tool.Result{}, err
	}
	if rel == "." {
		return tool.Result{}, fmt.Errorf("file_path %q is the working directory itself, not a file", in.FilePath)
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := t.root.MkdirAll(dir, 0o755); err != nil {
			return tool.Result{}, fsError("file_path", in.FilePath, err)
		}
	}
	existed := false
	switch info, err := t.root.Stat(rel); {
	case err == nil && !info.Mode().IsRegular():
		return tool.Result{}, fmt.Errorf("file_path %q exists and is not a regular file", in.FilePath)
	case err == nil:
		existed = true
	case !errors.Is(err, fs.ErrNotExist):
		return tool.Result{}, fsError("file_path", in.FilePath, err) // e.g. a link that leads outside
	}
	if err := t.store(rel, in.FilePath, []byte(in.Content)); err != nil {
		return tool.Result{}, err
	}
	verb := "created"
	if existed {
		verb = "overwrote"
	}
	return tool.Text(fmt.Sprintf("%s %s (%d bytes)", verb, in.FilePath, len(in.Content))), nil
}

// store writes data to rel through the os.Root, which refuses to follow a
// symbolic link out of the directory.
func (t *Toolset) store(rel, shown string, data []byte) error {
	f, err := t.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fsError("file_path", shown, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fsError("file_path", shown, err)
	}
	if err := f.Close(); err != nil {
		return fsError("file_path", shown, err)
	}
	return nil
}

func (t *Toolset) edit(_ context.Context, in EditInput) (tool.Result, error) {
	if in.OldString == "" {
		return tool.Result{}, errors.New("old_string must not be empty")
	}
	if in.OldString == in.NewString {
		return tool.Result{}, errors.New("old_string and new_string are the same: there is nothing to change")
	}
	rel, err := t.resolve("file_path", in.FilePath)
	if err != nil {
		return tool.Result{}, err
	}
	data, err := t.load(rel, in.FilePath)
	if err != nil {
		return tool.Result{}, err
	}
	text := string(data)
	n := strings.Count(text, in.OldString)
	switch {
	case n == 0:
		return tool.Result{}, fmt.Errorf("old_string was not found in %q: read the file and copy the text exactly, whitespace included", in.FilePath)
	case n > 1 && !in.ReplaceAll:
		return tool.Result{}, fmt.Errorf("old_string occurs %d times in %q: include more of the surrounding text to make it unique, or set replace_all", n, in.FilePath)
	}
	if in.ReplaceAll {
		text = strings.ReplaceAll(text, in.OldString, in.NewString)
	} else {
		text = strings.Replace(text, in.OldString, in.NewString, 1)
	}
	if int64(len(text)) > t.maxFileSize {
		return tool.Result{}, fmt.Errorf("the edited file would be %d bytes, over the %d-byte limit", len(text), t.maxFileSize)
	}
	if err := t.store(rel, in.FilePath, []byte(text)); err != nil {
		return tool.Result{}, err
	}
	return tool.Text(fmt.Sprintf("edited %s: %d replacement(s)", in.FilePath, n)), nil
}

// load reads a whole text file of at most the size limit; a larger one is
// refused before it is read.
func (t *Toolset) load(rel, shown string) ([]byte, error) {
	info, err := t.regularFile(rel, shown)
	if err != nil {
		return nil, err
	}
	if info.Size() > t.maxFileSize {
		return nil, fmt.Errorf("file_path %q is %d bytes, over the %d-byte limit", shown, info.Size(), t.maxFileSize)
	}
	f, err := t.root.Open(rel)
	if err != nil {
		return nil, fsError("file_path", shown, err)
	}
	defer f.Close()
	// The file may have grown since it was checked: read one byte more
	// than the limit to notice.
	data, err := io.ReadAll(io.LimitReader(f, t.maxFileSize+1))
	if err != nil {
		return nil, fsError("file_path", shown, err)
	}
	if int64(len(data)) > t.maxFileSize {
		return nil, fmt.Errorf("file_path %q holds more than the %d-byte limit", shown, t.maxFileSize)
	}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		return nil, binaryError(shown)
	}
	return data, nil
}
