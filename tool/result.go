package tool

import (
	"encoding/json"
	"fmt"
)

// Result is what a tool returns to the model: text or several content
// blocks, and whether it is an error (is_error on the wire).
type Result struct {
	Content []Block
	IsError bool
}

// Block is a piece of a tool's result: TextBlock or ImageBlock.
type Block interface{ isBlock() }

// TextBlock is text.
type TextBlock struct{ Text string }

// ImageBlock is an image, sent base64-encoded.
type ImageBlock struct {
	MediaType string // "image/png", "image/jpeg", "image/gif" or "image/webp"
	Data      []byte
}

func (TextBlock) isBlock()  {}
func (ImageBlock) isBlock() {}

// Text returns a result of one text block.
func Text(s string) Result { return Result{Content: []Block{TextBlock{Text: s}}} }

// JSON returns a result holding v encoded as JSON text, the form models
// read structured results best in. An encoding failure is an error result.
func JSON(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, fmt.Errorf("encoding the result: %w", err)
	}
	return Text(string(b)), nil
}

// Errorf returns an error result whose text the model reads; the
// conversation goes on and the model can try again differently.
func Errorf(format string, args ...any) Result {
	r := Text(fmt.Sprintf(format, args...))
	r.IsError = true
	return r
}

// TextContent joins the result's text blocks, for APIs that take a string.
func (r Result) TextContent() string {
	var s string
	for _, b := range r.Content {
		if t, ok := b.(TextBlock); ok {
			s += t.Text
		}
	}
	return s
}
