// Package examples_test checks that the examples stay copyable: each one
// must build in a module of its own, with the SDK as a dependency, and Go
// refuses an internal package of another module.
package examples_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestExamplesImportNoInternalPackage(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "internal" {
			t.Errorf("%s: an internal directory; an example copied into another module could not import it", path)
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && filepath.Dir(path) != "." {
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no example files found")
	}

	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Errorf("%s: import %s: %v", fset.Position(imp.Pos()), imp.Path.Value, err)
				continue
			}
			if isInternal(p) {
				t.Errorf("%s: imports %s, an internal package: the example would not build in another module; use the SDK's public packages (platformtest for the embedded server)",
					fset.Position(imp.Pos()), p)
			}
		}
	}
}

// isInternal reports whether Go restricts who may import the package at
// path: it has an element named internal.
func isInternal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}
