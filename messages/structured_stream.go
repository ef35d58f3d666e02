package messages

import (
	"context"

	"github.com/agentplatform/agentplatform-go/option"
)

// ParsedStream is a message stream whose final text block decodes into a
// T. Range over its Events to see the output as it is written (or skip
// them), then call Parsed; Close it when done, as a MessageStream.
type ParsedStream[T any] struct {
	*MessageStream
	schema *outputSchema
}

// StreamAs is Stream with the JSON output format of T, as CreateAs is
// Create: the same checks before anything is sent, and ParsedStream.Parsed
// decodes the message once the stream has ended.
func StreamAs[T any](ctx context.Context, s *Service, params MessageParams, opts ...option.Option) (*ParsedStream[T], error) {
	schema, err := withFormat[T](&params)
	if err != nil {
		return nil, err
	}
	st, err := s.Stream(ctx, params, opts...)
	if err != nil {
		return nil, err
	}
	return &ParsedStream[T]{MessageStream: st, schema: schema}, nil
}

// Parsed reads what is left of the stream and decodes its message. A
// stream that broke returns Message's error, with no value: a partial
// document is not decoded. A message that holds no T is an *OutputError.
func (s *ParsedStream[T]) Parsed() (*Parsed[T], error) {
	m, err := s.Message()
	if err != nil {
		return nil, err
	}
	return decodeOutput[T](m, s.schema)
}
