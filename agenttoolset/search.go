package agenttoolset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentplatform/agentplatform-go/tool"
)

// GlobInput is the input of the glob tool.
type GlobInput struct {
	Pattern string `json:"pattern" jsonschema:"a glob pattern relative to path, where ** matches any number of directories, e.g. **/*.go"`
	Path    string `json:"path,omitempty" jsonschema:"the directory to search, relative to the working directory or absolute inside it; default the working directory"`
}

// GrepInput is the input of the grep tool.
type GrepInput struct {
	Pattern string `json:"pattern" jsonschema:"a regular expression (Go RE2 syntax), matched against each line"`
	Path    string `json:"path,omitempty" jsonschema:"the file or directory to search, relative to the working directory or absolute inside it; default the working directory"`
}

// maxGlobMatches bounds the matches glob collects (and sorts) before it
// stops walking, so that a pattern over a huge tree stays cheap.
const maxGlobMatches = 100_000

var errStop = errors.New("stop")

func (t *Toolset) globTool() tool.Tool {
	return tool.Must(tool.New("glob",
		"List the files and directories under path (default the working directory) that match a glob pattern such as **/*.go, sorted, relative to the working directory. Symbolic links are listed but not followed.",
		t.glob))
}

func (t *Toolset) grepTool() tool.Tool {
	return tool.Must(tool.New("grep",
		"Search the text files under path (default the working directory) for lines matching a regular expression (Go RE2 syntax). Prints path:line:text. Binary files, files over the size limit and .git directories are skipped; symbolic links are not followed.",
		t.grep))
}

// searchBase resolves the optional path of glob and grep into a path of the
// os.Root's file system, and reports whether it names a directory.
func (t *Toolset) searchBase(p string) (string, bool, error) {
	if p == "" {
		p = "."
	}
	rel, err := t.resolve("path", p)
	if err != nil {
		return "", false, err
	}
	info, err := t.root.Stat(rel)
	if err != nil {
		return "", false, fsError("path", p, err)
	}
	return filepath.ToSlash(rel), info.IsDir(), nil
}

func (t *Toolset) glob(ctx context.Context, in GlobInput) (tool.Result, error) {
	switch {
	case in.Pattern == "":
		return tool.Result{}, errors.New("pattern must not be empty")
	case strings.HasPrefix(in.Pattern, "/") || filepath.IsAbs(in.Pattern):
		return tool.Result{}, fmt.Errorf("pattern %q must be relative: give the directory to search in path", in.Pattern)
	case slices.Contains(strings.Split(in.Pattern, "/"), ".."):
		return tool.Result{}, fmt.Errorf("pattern %q must not contain a .. segment: glob searches inside the working directory only", in.Pattern)
	case !doublestar.ValidatePattern(in.Pattern):
		return tool.Result{}, fmt.Errorf("pattern %q is not a valid glob pattern", in.Pattern)
	}
	base, isDir, err := t.searchBase(in.Path)
	if err != nil {
		return tool.Result{}, err
	}
	if !isDir {
		return tool.Result{}, fmt.Errorf("path %q is not a directory", in.Path)
	}
	fsys := t.root.FS()
	if base != "." {
		if fsys, err = fs.Sub(fsys, base); err != nil {
			return tool.Result{}, fsError("path", in.Path, err)
		}
	}
	var matches []string
	more := false
	// WithNoFollow: ** does not descend into symbolic links, so a link can
	// neither loop nor lead the walk outside (the os.Root would refuse the
	// latter anyway; a read error simply drops that branch).
	err = doublestar.GlobWalk(fsys, in.Pattern, func(p string, _ fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == "." {
			return nil // the directory searched, which "**" matches too
		}
		if len(matches) == maxGlobMatches {
			more = true
			return errStop
		}
		matches = append(matches, path.Join(base, p))
		return nil
	}, doublestar.WithNoFollow())
	if err != nil && !errors.Is(err, errStop) {
		return tool.Result{}, fmt.Errorf("glob %q: %v", in.Pattern, err)
	}
	if len(matches) == 0 {
		return tool.Text(fmt.Sprintf("no paths match %q", in.Pattern)), nil
	}
	slices.Sort(matches)
	var out capped
	out.max = t.maxOutput
	for i, m := range matches {
		if !out.line(m) {
			return tool.Text(out.String() + fmt.Sprintf("[%d more matches not shown: narrow the pattern or path]\n", len(matches)-i)), nil
		}
	}
	if more {
		out.WriteString(fmt.Sprintf("[stopped after %d matches: narrow the pattern or path]\n", maxGlobMatches))
	}
	return tool.Text(out.String()), nil
}

// capped collects lines up to max bytes.
type capped struct {
	strings.Builder
	max int
}

// line adds s and a newline, or reports false when that would pass max.
func (c *capped) line(s string) bool {
	if c.Len()+len(s)+1 > c.max {
		return false
	}
	c.WriteString(s)
	c.WriteByte('\n')
	return true
}

func (t *Toolset) grep(ctx context.Context, in GrepInput) (tool.Result, error) {
	if in.Pattern == "" {
		return tool.Result{}, errors.New("pattern must not be empty")
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return tool.Result{}, fmt.Errorf("pattern is not a valid regular expression (Go RE2 syntax): %v", err)
	}
	base, _, err := t.searchBase(in.Path)
	if err != nil {
		return tool.Result{}, err
	}
	g := grepper{re: re, fsys: t.root.FS(), maxFile: t.maxFileSize}
	g.out.max = t.maxOutput
	// fs.WalkDir does not follow symbolic links: a link is visited as an
	// entry of its own and skipped below, as is anything not a regular file.
	err = fs.WalkDir(g.fsys, base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip it
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != base {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return g.file(p, d)
	})
	if err != nil && !errors.Is(err, errStop) {
		return tool.Result{}, fmt.Errorf("grep: %v", err)
	}
	var note string
	if g.big > 0 {
		note = fmt.Sprintf("[%d file(s) over the %d-byte limit not searched]\n", g.big, t.maxFileSize)
	}
	if g.matches == 0 {
		return tool.Text(fmt.Sprintf("no lines match %q\n", in.Pattern) + note), nil
	}
	if g.cut {
		note += fmt.Sprintf("[output cut at %d bytes: narrow the pattern or path]\n", t.maxOutput)
	}
	return tool.Text(g.out.String() + note), nil
}

type grepper struct {
	re      *regexp.Regexp
	fsys    fs.FS
	maxFile int64
	out     capped
	matches int  // lines found
	big     int  // files skipped for their size
	cut     bool // output reached its cap
}

// file searches one regular file, p, a slash path relative to the
// working directory, which is also how results name it.
func (g *grepper) file(p string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return nil
	}
	if info.Size() > g.maxFile {
		g.big++
		return nil
	}
	f, err := g.fsys.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, g.maxFile+1))
	if err != nil || int64(len(data)) > g.maxFile {
		g.big++
		return nil
	}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		return nil // binary
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if !g.re.Match(line) {
			continue
		}
		g.matches++
		if !g.out.line(fmt.Sprintf("%s:%d:%s", p, n, strings.ToValidUTF8(string(line), "\uFFFD"))) {
			g.cut = true
			return errStop
		}
	}
	return nil
}
