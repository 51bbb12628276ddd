package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every exported identifier of the generated code has a doc comment that starts
// with its name, as go vet, staticcheck (ST1020, ST1021, ST1022) and godoc expect —
// types, functions, methods, constants (grouped ones too) and struct fields.
// staticcheck skips generated files, so this test is what holds the compiler's
// output to it (run.sh also runs staticcheck on a copy without the header).
func TestGeneratedDocCommentsStartWithTheName(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("generated", "*", "*.go"))
	if err != nil || len(files) < 10 {
		t.Fatalf("generated code missing (run go run ./internal/gen): %v", err)
	}
	checked := 0
	for _, file := range files {
		if strings.Contains(file, "registry") {
			continue // the runner's own list, not the compiler's output
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, docs ...*ast.CommentGroup) {
			if !ast.IsExported(name) {
				return
			}
			checked++
			for _, d := range docs {
				if d != nil {
					if !strings.HasPrefix(d.Text(), name+" ") {
						t.Errorf("%s: the doc comment of %s starts %q", file, name, firstLine(d.Text()))
					}
					return
				}
			}
			t.Errorf("%s: %s has no doc comment", file, name)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				check(d.Name.Name, d.Doc)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					// A lone declaration's comment is the GenDecl's; in a group, the spec's.
					outer := d.Doc
					if d.Lparen.IsValid() {
						outer = nil
					}
					switch s := spec.(type) {
					case *ast.TypeSpec:
						check(s.Name.Name, s.Doc, outer)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, field := range st.Fields.List {
								for _, n := range field.Names {
									check(n.Name, field.Doc)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							check(n.Name, s.Doc, outer)
						}
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d identifiers checked", checked)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
