// Package skillmd holds the rules a skill upload must follow
// (docs/skills-wire.md 3): the paths of its files, their count and total
// size, and the SKILL.md manifest's YAML front matter. The SDK checks them
// before it sends anything and the reference server checks them again, with
// this same code, so both refuse the same uploads with the same field and
// rule.
package skillmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits of an upload.
const (
	// MaxTotalBytes bounds the bytes of an upload's files together (8 MiB).
	MaxTotalBytes = 8 << 20
	// MaxFiles bounds the number of files of an upload.
	MaxFiles = 500
	// MaxPathBytes bounds the length of a file's path.
	MaxPathBytes = 512
	// MaxNameLen bounds a skill's name, in characters.
	MaxNameLen = 64
	// MaxDescriptionLen bounds a skill's description, in characters.
	MaxDescriptionLen = 1024
	// MaxDisplayNameLen bounds a skill's display name, in characters.
	MaxDisplayNameLen = 255
	// ManifestFile is the manifest's name, directly in the top-level
	// directory.
	ManifestFile = "SKILL.md"
	// ReservedWord may not appear in a skill's name.
	ReservedWord = "vendor"
)

// Problem is a rule an upload breaks: the field it concerns and the rule,
// worded as the API words them. TooLarge problems are the size limit's
// (a 413 on the server).
type Problem struct {
	Field    string
	Rule     string
	TooLarge bool
}

func (p *Problem) Error() string { return p.Field + ": " + p.Rule }

func problem(field, format string, args ...any) *Problem {
	return &Problem{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// FilesField names the i-th file part.
func FilesField(i int) string { return fmt.Sprintf("files[%d]", i) }

// TooLargeProblem is the size limit's problem.
func TooLargeProblem() *Problem {
	return &Problem{Field: "files", Rule: fmt.Sprintf("the skill's files must total at most %d bytes", MaxTotalBytes), TooLarge: true}
}

// CleanPath reports whether p is a relative path of the upload: not empty,
// not absolute, no backslash, no empty, "." or ".." segment, no control
// character, valid UTF-8, at most MaxPathBytes.
func CleanPath(p string) bool {
	if p == "" || len(p) > MaxPathBytes || !utf8.ValidString(p) || strings.ContainsRune(p, '\\') {
		return false
	}
	if strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// Set checks an upload's files as they are added: their paths, count and
// total size, and that they share one top-level directory with SKILL.md in
// it. The zero Set is ready.
type Set struct {
	top      string
	paths    map[string]bool
	total    int64
	manifest bool
}

// Add checks the i-th file, at path, of size bytes. It returns the file's
// path below the top-level directory.
func (s *Set) Add(i int, path string, size int64) (string, *Problem) {
	field := FilesField(i)
	if !CleanPath(path) {
		return "", problem(field, "`%s` is not a relative path", path)
	}
	if s.paths == nil {
		s.paths = map[string]bool{}
	}
	if s.paths[path] {
		return "", problem(field, "duplicate path `%s`", path)
	}
	if len(s.paths) == MaxFiles {
		return "", problem("files", "at most %d files", MaxFiles)
	}
	top, rest, ok := strings.Cut(path, "/")
	if !ok || (s.top != "" && top != s.top) {
		return "", problem("files", "every file must be in the same top-level directory")
	}
	s.top = top
	s.paths[path] = true
	s.total += size
	if s.total > MaxTotalBytes {
		return "", TooLargeProblem()
	}
	if rest == ManifestFile {
		s.manifest = true
	}
	return rest, nil
}

// Grow counts n more bytes of a file already added (a stream whose size
// was not known when it was added).
func (s *Set) Grow(n int64) *Problem {
	s.total += n
	if s.total > MaxTotalBytes {
		return TooLargeProblem()
	}
	return nil
}

// Finish checks the whole upload and returns its top-level directory.
func (s *Set) Finish() (string, *Problem) {
	if len(s.paths) == 0 {
		return "", problem("files", "is required")
	}
	if !s.manifest {
		return "", problem("files", "`%s/%s` is required", s.top, ManifestFile)
	}
	return s.top, nil
}

// Manifest is what the API reads of SKILL.md.
type Manifest struct {
	// Name is the skill's slug: the front matter's name, or the top-level
	// directory's name when it has none.
	Name        string
	Description string
}

const (
	fieldManifest    = "SKILL.md"
	fieldName        = "SKILL.md.name"
	fieldDescription = "SKILL.md.description"
)

var (
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// xmlTagRE finds what reads as an XML tag: "<", then a letter, "/" or
	// "!", up to ">".
	xmlTagRE = regexp.MustCompile(`<[A-Za-z/!][^<>]*>`)
)

// Parse reads SKILL.md's front matter; dir is the upload's top-level
// directory, the name when the front matter has none.
func Parse(data []byte, dir string) (Manifest, *Problem) {
	front, err := frontMatter(data)
	if err != nil {
		return Manifest{}, problem(fieldManifest, "must start with YAML front matter between `---` lines: %s", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return Manifest{}, problem(fieldManifest, "must start with YAML front matter between `---` lines: %s", err)
	}
	var members map[string]*yaml.Node
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		members = map[string]*yaml.Node{}
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			members[m.Content[i].Value] = m.Content[i+1]
		}
	}
	if members == nil {
		return Manifest{}, problem(fieldManifest, "must start with YAML front matter between `---` lines: the front matter is not a mapping")
	}
	var m Manifest
	if n, ok := members["name"]; ok {
		if !isString(n) {
			return Manifest{}, problem(fieldName, "must be a string")
		}
		m.Name = n.Value
	} else {
		m.Name = dir
	}
	if p := CheckName(m.Name); p != nil {
		return Manifest{}, p
	}
	n, ok := members["description"]
	if !ok || !isString(n) || strings.TrimSpace(n.Value) == "" {
		return Manifest{}, problem(fieldDescription, "is required")
	}
	if utf8.RuneCountInString(n.Value) > MaxDescriptionLen {
		return Manifest{}, problem(fieldDescription, "must be at most %d characters", MaxDescriptionLen)
	}
	if xmlTagRE.MatchString(n.Value) {
		return Manifest{}, problem(fieldDescription, "must not contain XML tags")
	}
	m.Description = n.Value
	return m, nil
}

// CheckName checks a skill's name.
func CheckName(name string) *Problem {
	if len(name) > MaxNameLen || !nameRE.MatchString(name) {
		return problem(fieldName, "must be 1 to %d lowercase letters, digits and hyphens", MaxNameLen)
	}
	if strings.Contains(name, ReservedWord) {
		return problem(fieldName, "must not contain the reserved word `%s`", ReservedWord)
	}
	return nil
}

// SameName checks that a new version keeps the skill's name.
func SameName(want, got string) *Problem {
	if want == got {
		return nil
	}
	return problem(fieldName, "must be `%s`, the skill's name; got `%s`", want, got)
}

// isString reports whether a YAML node is a string scalar (plain, quoted or
// block), not a number, boolean or null.
func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
}

// frontMatter returns the YAML between the opening "---" line and the
// closing one.
func frontMatter(data []byte) ([]byte, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("SKILL.md is not UTF-8")
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	first, rest, _ := cutLine(data)
	if string(bytes.TrimRight(first, " \t")) != "---" {
		return nil, fmt.Errorf("the first line is not `---`")
	}
	start := rest
	off := 0
	for len(rest) > 0 {
		line, next, _ := cutLine(rest)
		if string(bytes.TrimRight(line, " \t")) == "---" {
			return start[:off], nil
		}
		off += len(rest) - len(next)
		rest = next
	}
	return nil, fmt.Errorf("no closing `---` line")
}

// cutLine splits data after its first line (LF or CRLF), which it returns
// without its end.
func cutLine(data []byte) (line, rest []byte, found bool) {
	line, rest, found = bytes.Cut(data, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, found
}

// CheckDisplayName checks a display name given at creation.
func CheckDisplayName(s string) *Problem {
	if n := utf8.RuneCountInString(s); n < 1 || n > MaxDisplayNameLen || !utf8.ValidString(s) {
		return problem("display_name", "must be between 1 and %d characters", MaxDisplayNameLen)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' }) {
		return problem("display_name", "must be a single line")
	}
	return nil
}
