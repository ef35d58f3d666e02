package skillmd

import (
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, in, dir string
		want          Manifest
		field, rule   string // the Problem's, when it fails
	}{
		{"plain", "---\nname: a-b\ndescription: D.\n---\nbody", "x", Manifest{"a-b", "D."}, "", ""},
		{"bom and crlf", "\uFEFF---\r\nname: a\r\ndescription: D\r\n---\r\n", "x", Manifest{"a", "D"}, "", ""},
		{"closing line last, spaces after dashes", "--- \nname: a\ndescription: D\n---", "x", Manifest{"a", "D"}, "", ""},
		{"name from directory", "---\ndescription: D\n---\n", "from-dir", Manifest{"from-dir", "D"}, "", ""},
		{"quoted and folded", "---\nname: \"q\"\ndescription: >\n  one\n  two\n---\n", "x", Manifest{"q", "one two\n"}, "", ""},
		{"less-than is not a tag", "---\nname: a\ndescription: 1 < 2 and 3 > 2\n---\n", "x", Manifest{"a", "1 < 2 and 3 > 2"}, "", ""},
		{"invalid utf-8", "---\nname: a\xff\n---\n", "x", Manifest{}, "SKILL.md", "not UTF-8"},
		{"bad yaml", "---\nname: [\n---\n", "x", Manifest{}, "SKILL.md", "must start with YAML front matter"},
		{"empty front matter", "---\n---\n", "x", Manifest{}, "SKILL.md", "not a mapping"},
		{"name null", "---\nname:\ndescription: D\n---\n", "x", Manifest{}, "SKILL.md.name", "must be a string"},
		{"name bool", "---\nname: true\ndescription: D\n---\n", "x", Manifest{}, "SKILL.md.name", "must be a string"},
		{"description number", "---\nname: a\ndescription: 3\n---\n", "x", Manifest{}, "SKILL.md.description", "is required"},
		{"leading hyphen", "---\nname: -a\ndescription: D\n---\n", "x", Manifest{}, "SKILL.md.name", "lowercase"},
		{"comment tag", "---\nname: a\ndescription: x <!-- y -->\n---\n", "x", Manifest{}, "SKILL.md.description", "XML tags"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, p := Parse([]byte(tc.in), tc.dir)
			if tc.field == "" {
				if p != nil || got != tc.want {
					t.Fatalf("Parse = %+v, %v; want %+v", got, p, tc.want)
				}
				return
			}
			if p == nil || p.Field != tc.field || !strings.Contains(p.Rule, tc.rule) {
				t.Fatalf("Parse problem %v; want %s: …%s…", p, tc.field, tc.rule)
			}
		})
	}
}

func TestSetGrowAndLimits(t *testing.T) {
	var s Set
	if _, p := s.Add(0, "a/SKILL.md", MaxTotalBytes); p != nil {
		t.Fatal(p)
	}
	if p := s.Grow(1); p == nil || !p.TooLarge {
		t.Fatalf("Grow past the limit: %v", p)
	}
	var many Set
	for i := range MaxFiles {
		if _, p := many.Add(i, "a/f"+strconv.Itoa(i), 0); p != nil {
			t.Fatal(p)
		}
	}
	if _, p := many.Add(MaxFiles, "a/one-more", 0); p == nil || p.Rule != "at most 500 files" {
		t.Fatalf("file %d: %v", MaxFiles+1, p)
	}
	if CleanPath(strings.Repeat("a", MaxPathBytes+1)) || !CleanPath("a/"+strings.Repeat("b", MaxPathBytes-2)) {
		t.Fatal("path length limit")
	}
}
