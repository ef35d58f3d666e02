// Command apisurface counts the exported identifiers of each public package
// of the module: top-level constants, variables, types and functions, and
// the exported methods of exported types. Struct fields are not counted,
// and the MarshalJSON and UnmarshalJSON methods, which implement
// encoding/json's interfaces rather than add names to learn, are counted
// in a column of their own.
// It is how the changelog's figures for the public API are measured:
//
//	go run ./internal/cmd/apisurface [dir]
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	counts, jsonMethods := map[string]int{}, map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (base == "internal" || base == "examples" || base == "testdata" || strings.HasPrefix(base, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if strings.HasSuffix(f.Name.Name, "_test") || f.Name.Name == "main" {
			return nil
		}
		n, j := exported(f)
		counts[filepath.Dir(rel)] += n
		jsonMethods[filepath.Dir(rel)] += j
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dirs := make([]string, 0, len(counts))
	total, totalJSON := 0, 0
	for d, n := range counts {
		dirs = append(dirs, d)
		total += n
		totalJSON += jsonMethods[d]
	}
	sort.Strings(dirs)
	fmt.Printf("%-14s %5s %5s\n", "package", "names", "json")
	for _, d := range dirs {
		fmt.Printf("%-14s %5d %5d\n", d, counts[d], jsonMethods[d])
	}
	fmt.Printf("%-14s %5d %5d\n", "total", total, totalJSON)
}

// exported counts the exported identifiers one file declares, and apart
// from them its MarshalJSON and UnmarshalJSON methods.
func exported(f *ast.File) (n, jsonMethods int) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			switch {
			case d.Recv != nil && !receiverExported(d.Recv):
			case d.Recv != nil && (d.Name.Name == "MarshalJSON" || d.Name.Name == "UnmarshalJSON"):
				jsonMethods++
			default:
				n++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						n++
					}
				case *ast.ValueSpec:
					for _, name := range s.Names {
						if name.IsExported() {
							n++
						}
					}
				}
			}
		}
	}
	return n, jsonMethods
}

func receiverExported(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
