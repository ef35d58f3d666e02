package agentplatform_test

import (
	"bufio"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The repository must be readable on its own: no comment or document may
// cite a file or document that is not part of it (the private API
// specification and engineering guide the project was first written from,
// or a wire contract cited by section number without naming which docs/
// file it is), and every relative Markdown link must lead to a file of the
// repository. The patterns are written so that this file does not match
// them itself.

// outsideCitations match citations of documents outside the repository.
var outsideCitations = []*regexp.Regexp{
	// The specification, by its name as an upper-case whole word: this
	// covers its section numbers, its file name, "<name> section", a
	// parenthesised citation and the bare name ("where <name> says").
	// Ordinary words and identifiers ("spec", "KeySpec") do not match.
	regexp.MustCompile(`\bSPEC\b`),
	// The engineering guide: its sections and its file.
	regexp.MustCompile(`\bGUIDE[ ][0-9]`),
	regexp.MustCompile(`\bGUIDE\.md\b`),
	// The directory both live in, next to the repository.
	regexp.MustCompile(`\.\./shared\b`),
}

// contractSection matches a wire-contract section cited by number: the word
// contract, optionally "section", then a number. It is allowed only after a
// Markdown file name on the same line, which says which contract it is
// (docs/session-events-wire.md 5.3 is fine, the bare form is not).
var (
	contractSection = regexp.MustCompile(`(?i)\bcontracts?(?:[ ]section)?[ ][0-9]`)
	markdownFile    = regexp.MustCompile(`[\w./-]+\.md\b`)
)

// Relative Markdown links: inline [text](target "title") and reference
// definitions "[label]: target".
var (
	inlineLink    = regexp.MustCompile(`\]\((<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`)
	referenceLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	inlineCode    = regexp.MustCompile("`+[^`]*`+")
	urlScheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func TestNoReferencesOutsideTheRepository(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var goFiles, mdFiles []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == ".git" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case name == "CHANGELOG.md": // released entries are history
		case strings.HasSuffix(name, ".go"):
			goFiles = append(goFiles, path)
		case strings.HasSuffix(name, ".md"):
			mdFiles = append(mdFiles, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(goFiles) == 0 || len(mdFiles) == 0 {
		t.Fatalf("found %d .go and %d .md files; is the test running in the repository root?", len(goFiles), len(mdFiles))
	}

	t.Run("citations", func(t *testing.T) {
		var found []string
		for _, path := range slices.Concat(goFiles, mdFiles) {
			eachLine(t, path, func(n int, line string) {
				if citesOutside(line) {
					found = append(found, location(root, path, n, line))
				}
			})
		}
		report(t, found, "references to documents outside the repository (state the rule, or name the docs/*.md file and section that states it)")
	})

	t.Run("links", func(t *testing.T) {
		var found []string
		for _, path := range mdFiles {
			inFence := ""
			eachLine(t, path, func(n int, line string) {
				if fence := codeFence(line); fence != "" {
					switch {
					case inFence == "":
						inFence = fence
					case strings.HasPrefix(fence, inFence):
						inFence = ""
					}
					return
				}
				if inFence != "" {
					return
				}
				for _, target := range linkTargets(line) {
					if problem := checkLink(root, path, target); problem != "" {
						found = append(found, location(root, path, n, target+": "+problem))
					}
				}
			})
		}
		report(t, found, "relative Markdown links that do not resolve to a file of the repository")
	})
}

// citesOutside reports whether line cites a document outside the
// repository.
func citesOutside(line string) bool {
	for _, re := range outsideCitations {
		if re.MatchString(line) {
			return true
		}
	}
	for _, m := range contractSection.FindAllStringIndex(line, -1) {
		if !markdownFile.MatchString(line[:m[0]]) {
			return true
		}
	}
	return false
}

// codeFence returns the fence a line opens or closes (``` or ~~~, with its
// length), or "".
func codeFence(line string) string {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 {
		return ""
	}
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(s, c+c+c) {
			return s[:len(s)-len(strings.TrimLeft(s, c))]
		}
	}
	return ""
}

// linkTargets returns the targets of the links on a Markdown line, outside
// inline code spans.
func linkTargets(line string) []string {
	line = inlineCode.ReplaceAllString(line, "")
	var targets []string
	for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
		targets = append(targets, m[1])
	}
	if m := referenceLink.FindStringSubmatch(line); m != nil {
		targets = append(targets, m[1])
	}
	return targets
}

// checkLink returns what is wrong with a link target found in the Markdown
// file path, or "" when it is an external URL, an anchor, or a file or
// directory inside the repository.
func checkLink(root, path, target string) string {
	target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
	if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "//") || urlScheme.MatchString(target) {
		return ""
	}
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if unescaped, err := url.PathUnescape(target); err == nil {
		target = unescaped
	}
	var resolved string
	if strings.HasPrefix(target, "/") { // GitHub resolves these from the repository root
		resolved = filepath.Join(root, filepath.FromSlash(target))
	} else {
		resolved = filepath.Join(filepath.Dir(path), filepath.FromSlash(target))
	}
	if rel, err := filepath.Rel(root, resolved); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "outside the repository"
	}
	if _, err := os.Stat(resolved); err != nil {
		return "no such file"
	}
	return ""
}

func eachLine(t *testing.T, path string, f func(n int, line string)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		f(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func location(root, path string, n int, text string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	text = strings.TrimSpace(text)
	if r := []rune(text); len(r) > 160 {
		text = string(r[:157]) + "..."
	}
	return filepath.ToSlash(rel) + ":" + strconv.Itoa(n) + ": " + text
}

func report(t *testing.T, found []string, what string) {
	t.Helper()
	if len(found) > 0 {
		t.Errorf("%d %s:\n%s", len(found), what, strings.Join(found, "\n"))
	}
}
