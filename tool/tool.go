package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"runtime/debug"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/goschema"
	"github.com/agentplatform/agentplatform-go/internal/toolpanic"
)

// Tool is a named function with a description and a JSON Schema for its
// input, as custom tools are declared to the API. Build one with New or
// NewRaw; the zero value is not usable. A Tool is safe for concurrent use.
type Tool struct {
	name        string
	description string
	schema      json.RawMessage
	resolved    *jsonschema.Resolved
	run         func(ctx context.Context, input json.RawMessage) (Result, error)
}

// The API's rule for a custom tool's name: 1 to 128 letters, digits,
// underscores and hyphens.
var nameRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// New defines a tool whose input decodes into In, a struct: the input
// schema is generated from it (JSON field names; fields without omitempty
// or omitzero are required; a `jsonschema:"…"` tag describes a field).
func New[In any](name, description string, fn func(ctx context.Context, in In) (Result, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, &apierror.ValidationError{Field: "tool", Rule: "function must not be nil"}
	}
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		return Tool{}, fmt.Errorf("agentplatform: tool %s: input schema: %w", name, err)
	}
	if schema.Type != "object" {
		return Tool{}, &apierror.ValidationError{Field: "input_schema.type", Rule: fmt.Sprintf("must be object: the input of tool %s must be a struct", name)}
	}
	goschema.DropEmbedFields(schema, reflect.TypeFor[In]()) // the SDK's wire types keep unknown members in a `json:",embed"` field
	raw, err := json.Marshal(schema)
	if err != nil {
		return Tool{}, fmt.Errorf("agentplatform: tool %s: input schema: %w", name, err)
	}
	return newTool(name, description, raw, schema, func(ctx context.Context, input json.RawMessage) (Result, error) {
		var in In
		if err := json.Unmarshal(input, &in); err != nil {
			return Result{}, fmt.Errorf("input does not match the schema: %w", err)
		}
		return fn(ctx, in)
	})
}

// NewRaw defines a tool from a JSON Schema given as JSON, for inputs that
// no Go type describes well. fn receives the input as the model wrote it,
// after it was checked against the schema.
func NewRaw(name, description string, inputSchema json.RawMessage, fn func(ctx context.Context, input json.RawMessage) (Result, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, &apierror.ValidationError{Field: "tool", Rule: "function must not be nil"}
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(inputSchema, &schema); err != nil {
		return Tool{}, &apierror.ValidationError{Field: "input_schema", Rule: "must be a JSON Schema object: " + err.Error()}
	}
	if schema.Type != "object" {
		return Tool{}, &apierror.ValidationError{Field: "input_schema.type", Rule: "must be object"}
	}
	return newTool(name, description, append(json.RawMessage(nil), inputSchema...), &schema, fn)
}

func newTool(name, description string, raw json.RawMessage, schema *jsonschema.Schema,
	run func(context.Context, json.RawMessage) (Result, error)) (Tool, error) {
	if !nameRule.MatchString(name) {
		return Tool{}, &apierror.ValidationError{Field: "name", Rule: "must be 1 to 128 letters, digits, underscores or hyphens"}
	}
	if description == "" || !utf8.ValidString(description) {
		return Tool{}, &apierror.ValidationError{Field: "description", Rule: "must not be empty"}
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return Tool{}, &apierror.ValidationError{Field: "input_schema", Rule: err.Error()}
	}
	return Tool{name: name, description: description, schema: raw, resolved: resolved, run: run}, nil
}

// Must returns t, or panics if err is not nil: for tools declared as
// package-level variables, whose definitions are fixed at compile time.
func Must(t Tool, err error) Tool {
	if err != nil {
		panic(err)
	}
	return t
}

// Name is the tool's name, as the model calls it.
func (t Tool) Name() string { return t.name }

// Description tells the model what the tool does and when to use it.
func (t Tool) Description() string { return t.description }

// InputSchema is the JSON Schema of the tool's input, an object schema.
func (t Tool) InputSchema() json.RawMessage { return t.schema }

// Run executes the tool on input, the JSON the model wrote. Every failure
// becomes an error Result the model can read: input that is not valid JSON
// or breaks the schema, an error from the function, and a panic, which is
// recovered. A caller that cancels ctx should check it before sending the
// result anywhere.
//
// A panic's result says only "tool <name> panicked: <value>": it goes to
// the model and into the conversation, so it carries no stack trace (nor
// the source paths one holds). The stack is logged at error level instead:
// by the tool runner or the Messages tool loop that runs the tool, to
// their logger, and otherwise to slog.Default.
func (t Tool) Run(ctx context.Context, input json.RawMessage) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = Errorf("%s", toolpanic.Result(t.name, p))
			toolpanic.Report(ctx, t.name, p, debug.Stack())
		}
	}()
	if len(input) == 0 {
		input = json.RawMessage("{}") // a tool with no arguments may arrive with no input at all
	}
	var instance any
	if err := json.Unmarshal(input, &instance); err != nil {
		return Errorf("input is not valid JSON: %v", err)
	}
	if err := t.resolved.Validate(instance); err != nil {
		return Errorf("input does not match the schema: %v", err)
	}
	out, err := t.run(ctx, input)
	if err != nil {
		return Errorf("%v", err)
	}
	return out
}
