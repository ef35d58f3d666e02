package messages

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// wireTypes are the package's types that have an Extra field.
var wireTypes = []any{
	Message{}, StopDetails{}, Container{}, Usage{}, CacheCreation{}, OutputTokensDetails{}, ServerToolUsage{},
	UsageIteration{}, TokenCount{}, CacheControl{}, TextBlock{}, ImageBlock{}, DocumentBlock{}, CitationsConfig{},
	SearchResultBlock{}, Caller{}, ToolUseBlock{}, ToolResultBlock{}, ThinkingBlock{}, RedactedThinkingBlock{},
	FallbackBlock{}, FallbackModel{}, ServerToolUseBlock{}, WebSearchToolResultBlock{}, WebSearchResult{},
	WebSearchToolResultError{}, CodeExecutionToolResultBlock{}, BashCodeExecutionToolResultBlock{},
	CodeExecutionResult{}, CodeExecutionOutput{}, CodeExecutionToolResultError{}, BashCodeExecutionResult{},
	ToolReferenceBlock{}, BrowserStateBlock{}, BrowserTab{}, BrowserStateChange{}, WebFetchToolResultBlock{},
	WebFetchResult{}, WebFetchToolResultError{}, ToolSearchToolResultBlock{}, ToolSearchResult{},
	ToolSearchToolResultError{}, TextEditorCodeExecutionToolResultBlock{}, TextEditorViewResult{},
	TextEditorCreateResult{}, TextEditorStrReplaceResult{}, TextEditorCodeExecutionToolResultError{},
	EncryptedCodeExecutionResult{}, ContainerUploadBlock{}, ImageTransformations{},
	BashCodeExecutionToolResultError{}, MCPToolUseBlock{}, MCPToolResultBlock{}, Base64Source{}, PlainTextSource{},
	ContentSource{}, URLSource{}, FileSource{}, CharLocation{}, PageLocation{}, ContentBlockLocation{},
	WebSearchResultLocation{}, SearchResultLocation{}, MessageStartEvent{}, ContentBlockStartEvent{},
	ContentBlockDeltaEvent{}, ContentBlockStopEvent{}, MessageDeltaEvent{}, MessageStopEvent{}, MessageDelta{},
	MessageDeltaUsage{}, TextDelta{}, InputJSONDelta{}, ThinkingDelta{}, SignatureDelta{}, CitationsDelta{},
	Diagnostics{}, CacheMissReason{}, BrowserToolset{}, ComputerToolset{}, ToolsetMemberConfig{},
}

// TestWireTypesHaveJSONMethods: every exported struct type with an Extra
// field marshals with its own MarshalJSON (value receiver) and decodes
// with its own UnmarshalJSON (pointer receiver); without them
// encoding/json would write an "Extra" member. The package's source says
// which types have an Extra field, so that none is left out of wireTypes.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	listed := map[string]bool{}
	for _, v := range wireTypes {
		typ := reflect.TypeOf(v)
		listed[typ.Name()] = true
		f, ok := typ.FieldByName("Extra")
		if !ok || f.Type != reflect.TypeFor[map[string]json.RawMessage]() || f.Tag.Get("json") != ",embed" {
			t.Errorf("%s has no Extra field of the convention", typ.Name())
		}
		if !typ.Implements(reflect.TypeFor[json.Marshaler]()) {
			t.Errorf("%s does not implement json.Marshaler", typ.Name())
		}
		if !reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()) {
			t.Errorf("*%s does not implement json.Unmarshaler", typ.Name())
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || !spec.Name.IsExported() {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				for _, name := range field.Names {
					if name.Name == "Extra" && strings.Contains(field.Tag.Value, "embed") && !listed[spec.Name.Name] {
						t.Errorf("%s has an Extra field but is not in wireTypes", spec.Name.Name)
					}
				}
			}
			return true
		})
	}
}
