// Package goschema holds the rules the SDK applies to a JSON Schema
// generated from a Go type with github.com/google/jsonschema-go, shared by
// the places that generate one (tool inputs in package tool, structured
// outputs in package messages).
package goschema
