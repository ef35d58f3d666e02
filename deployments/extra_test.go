package deployments_test

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// structsWithExtra lists the exported struct types declared in the non-test
// files of dir that have a field named Extra.
func structsWithExtra(t *testing.T, dir string) []string {
	t.Helper()
	fset := gotoken.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	var out []string
	for _, pkg := range pkgs {
		ast.Inspect(pkg, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || !spec.Name.IsExported() {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, f := range st.Fields.List {
				for _, name := range f.Names {
					if name.Name == "Extra" {
						out = append(out, spec.Name.Name)
					}
				}
			}
			return true
		})
	}
	sort.Strings(out)
	return out
}
