package goschema

import (
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DropEmbedFields removes from a schema generated for t the fields tagged
// `json:",embed"`: the SDK's wire types keep the members they do not know
// in such a field (agents.BashInput.Extra, say), which is no member of its
// own. The generator would make it a required property named after the
// Go field, which no model output has; instead, the object then accepts
// members beyond its properties, as its type does. It reports whether t
// had such a field.
func DropEmbedFields(schema *jsonschema.Schema, t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || schema == nil {
		return false
	}
	dropped := false
	for f := range reflectFields(t) {
		tag, ok := f.Tag.Lookup("json")
		if !ok {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name != "" || !slices.Contains(strings.Split(opts, ","), "embed") {
			continue
		}
		delete(schema.Properties, f.Name)
		schema.Required = slices.DeleteFunc(schema.Required, func(r string) bool { return r == f.Name })
		schema.PropertyOrder = slices.DeleteFunc(schema.PropertyOrder, func(r string) bool { return r == f.Name })
		schema.AdditionalProperties = nil
		dropped = true
	}
	return dropped
}

// reflectFields yields t's exported fields.
func reflectFields(t reflect.Type) func(func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && !yield(f) {
				return
			}
		}
	}
}
