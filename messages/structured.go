package messages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/option"
)

// Parsed is a message whose final text block was decoded into a T.
type Parsed[T any] struct {
	Value   T
	Message *Message
}

// The reasons an OutputError has no document to decode; errors.Is finds
// them through the OutputError.
var (
	// ErrOutputRefused: the model declined to answer (stop_reason
	// "refusal"); Message.StopDetails says why.
	ErrOutputRefused = errors.New("agentplatform: the model refused, so there is no structured output")
	// ErrOutputTruncated: the output hit max_tokens or the context window
	// before the JSON document ended.
	ErrOutputTruncated = errors.New("agentplatform: the output was cut off before its JSON document ended")
	// ErrNoOutput: the message has no text block (the turn ended on a
	// tool call, say).
	ErrNoOutput = errors.New("agentplatform: the message has no text block to decode")
)

// OutputError is returned by CreateAs and StreamAs when the model answered
// but its output is not a T: it was refused or cut off (Err is
// ErrOutputRefused or ErrOutputTruncated), missing (ErrNoOutput), not JSON,
// not valid for the schema, or does not decode. Text is the final text
// block as the model wrote it, Message the whole message.
type OutputError struct {
	Text    string
	Err     error
	Message *Message
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("agentplatform: structured output (stop_reason %s): %v", e.Message.StopReason, e.Err)
}

func (e *OutputError) Unwrap() error { return e.Err }

// CreateAs runs the model with the JSON output format of T (see
// OutputFormatFor) and decodes its answer: Create, then the final text
// block checked against the schema and unmarshalled into a T.
//
// params.OutputConfig.Effort is kept; params must not set a format of its
// own (output_config.format or output_format). A type the schema cannot
// express is an *apierror.ValidationError and nothing is sent. A message
// that holds no T is an *OutputError, returned with the message in it.
func CreateAs[T any](ctx context.Context, s *Service, params MessageParams, opts ...option.Option) (*Parsed[T], error) {
	schema, err := withFormat[T](&params)
	if err != nil {
		return nil, err
	}
	m, err := s.Create(ctx, params, opts...)
	if err != nil {
		return nil, err
	}
	return decodeOutput[T](m, schema)
}

// withFormat sets the output format of T on params, a copy of the
// caller's, without changing the caller's OutputConfig.
func withFormat[T any](params *MessageParams) (*outputSchema, error) {
	if params.OutputFormat != nil {
		return nil, &apierror.ValidationError{Field: "output_format", Rule: "must not be set: the output format comes from the type parameter"}
	}
	oc := OutputConfig{}
	if params.OutputConfig != nil {
		if params.OutputConfig.Format != nil {
			return nil, &apierror.ValidationError{Field: "output_config.format", Rule: "must not be set: the output format comes from the type parameter"}
		}
		oc = *params.OutputConfig
	}
	schema := schemaFor(reflect.TypeFor[T]())
	if schema.err != nil {
		return nil, schema.err
	}
	oc.Format = &JSONSchemaFormat{Schema: schema.raw}
	params.OutputConfig = &oc
	return schema, nil
}

// decodeOutput turns a message into a Parsed, or an *OutputError.
func decodeOutput[T any](m *Message, schema *outputSchema) (*Parsed[T], error) {
	text, found := finalText(m)
	fail := func(err error) (*Parsed[T], error) {
		return nil, &OutputError{Text: text, Err: err, Message: m}
	}
	switch {
	case m.StopReason == StopRefusal:
		return fail(ErrOutputRefused)
	case m.StopReason == StopMaxTokens || m.StopReason == StopModelContextWindowExceeded:
		return fail(ErrOutputTruncated)
	case !found:
		return fail(ErrNoOutput)
	}
	var doc any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return fail(fmt.Errorf("not a JSON document: %w", err))
	}
	if err := schema.resolved.Validate(doc); err != nil {
		return fail(fmt.Errorf("does not match the schema: %w", err))
	}
	var v T
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return fail(fmt.Errorf("does not decode: %w", err))
	}
	return &Parsed[T]{Value: v, Message: m}, nil
}

// finalText is the message's last text block, where the JSON output is.
func finalText(m *Message) (string, bool) {
	for i := len(m.Content) - 1; i >= 0; i-- {
		if t, ok := m.Content[i].(TextBlock); ok {
			return t.Text, true
		}
	}
	return "", false
}
