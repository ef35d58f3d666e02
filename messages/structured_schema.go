package messages

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/goschema"
)

// outputSchema is the JSON output format of one Go type: the schema sent,
// and the same schema resolved, to check what the model wrote.
type outputSchema struct {
	raw      json.RawMessage
	resolved *jsonschema.Resolved
	err      error
}

// outputSchemas caches outputSchema by type: a program asks for a fixed
// set of types, and generating a schema walks the type by reflection.
var outputSchemas sync.Map // reflect.Type → *outputSchema

// OutputFormatFor returns the JSON output format whose documents decode
// into T, for callers who build MessageParams themselves; CreateAs and
// StreamAs set it for you. T must be a struct.
//
// The schema is generated from T as package tool generates a tool's input
// schema (JSON field names; a `jsonschema:"…"` tag describes a field; a
// `json:",embed"` field is left out), then made to follow the platform's
// rules for structured outputs:
//
//   - every object lists all its properties as required and allows no
//     others, so a field with omitempty is required too: make it a pointer
//     to let the model answer null;
//   - a pointer or a slice becomes anyOf the value's schema and null;
//   - a bound the platform does not enforce (an integer type's range, the
//     length of a Go array) is stated in the description instead;
//   - time.Time is a string of format date-time.
//
// A type the platform cannot express is an *apierror.ValidationError for
// output_config.format.schema naming the field: a map (an object without
// fixed properties), an interface, a channel or function, a type that
// contains itself.
func OutputFormatFor[T any]() (JSONSchemaFormat, error) {
	s := schemaFor(reflect.TypeFor[T]())
	if s.err != nil {
		return JSONSchemaFormat{}, s.err
	}
	return JSONSchemaFormat{Schema: append(json.RawMessage(nil), s.raw...)}, nil
}

func schemaFor(t reflect.Type) *outputSchema {
	if s, ok := outputSchemas.Load(t); ok {
		return s.(*outputSchema)
	}
	s := buildSchema(t)
	actual, _ := outputSchemas.LoadOrStore(t, s)
	return actual.(*outputSchema)
}

// typeSchemas overrides the generator's schema of some types.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
}

func buildSchema(t reflect.Type) *outputSchema {
	invalid := func(format string, args ...any) *outputSchema {
		return &outputSchema{err: &apierror.ValidationError{Field: "output_config.format.schema",
			Rule: fmt.Sprintf("cannot express Go type %s: ", t) + fmt.Sprintf(format, args...)}}
	}
	schema, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		return invalid("%v", err)
	}
	if schema.Type != "object" || t.Kind() != reflect.Struct {
		return invalid("must be a struct: a structured output is a JSON object")
	}
	goschema.DropEmbedFields(schema, t)
	if err := strict(schema, ""); err != nil {
		return invalid("%v", err)
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return invalid("%v", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return invalid("%v", err)
	}
	return &outputSchema{raw: raw, resolved: resolved}
}

// strict rewrites a generated schema in place to the structured-output
// subset, or says why its type cannot be expressed; path names the field
// ("" for the top level).
func strict(s *jsonschema.Schema, path string) error {
	where := func() string {
		if path == "" {
			return "the top level"
		}
		return "field " + path
	}
	if len(s.Types) > 0 { // ["null", T]: a pointer or a slice
		inner := *s
		inner.Types, inner.Description = nil, ""
		for _, typ := range s.Types {
			if typ != "null" {
				inner.Type = typ
			}
		}
		if err := strict(&inner, path); err != nil {
			return err
		}
		*s = jsonschema.Schema{Description: s.Description, AnyOf: []*jsonschema.Schema{&inner, {Type: "null"}}}
		return nil
	}
	var notes []string
	switch s.Type {
	case "":
		return fmt.Errorf("%s is an interface: it has no schema; use a concrete type", where())
	case "object":
		if len(s.Properties) == 0 && s.AdditionalProperties != nil && !isFalse(s.AdditionalProperties) {
			return fmt.Errorf("%s is a map: structured outputs accept objects with fixed properties only; use a struct, or a slice of key and value structs", where())
		}
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}} // false
		s.Required = propertyNames(s)
		for _, name := range s.Required {
			if err := strict(s.Properties[name], join(path, name)); err != nil {
				return err
			}
		}
	case "array":
		if s.Items != nil {
			if err := strict(s.Items, path+"[]"); err != nil {
				return err
			}
		}
		if s.MinItems != nil && *s.MinItems > 1 {
			notes = append(notes, fmt.Sprintf("minItems: %d", *s.MinItems))
			s.MinItems = nil
		}
		if s.MaxItems != nil {
			notes = append(notes, fmt.Sprintf("maxItems: %d", *s.MaxItems))
			s.MaxItems = nil
		}
	case "integer", "number":
		if s.Minimum != nil {
			notes = append(notes, fmt.Sprintf("minimum: %v", *s.Minimum))
			s.Minimum = nil
		}
		if s.Maximum != nil {
			notes = append(notes, fmt.Sprintf("maximum: %v", *s.Maximum))
			s.Maximum = nil
		}
	}
	if len(notes) > 0 {
		note := "{" + strings.Join(notes, ", ") + "}"
		if s.Description != "" {
			note = s.Description + "\n\n" + note
		}
		s.Description = note
	}
	return nil
}

// propertyNames lists an object's properties in field order.
func propertyNames(s *jsonschema.Schema) []string {
	names := slices.DeleteFunc(slices.Clone(s.PropertyOrder), func(n string) bool { _, ok := s.Properties[n]; return !ok })
	var rest []string
	for n := range s.Properties {
		if !slices.Contains(names, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
