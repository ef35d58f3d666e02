package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"unsafe"

	sse "github.com/tmaxmax/go-sse"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

// DefaultMaxEventSize bounds one event. go-sse's default is 64 KiB, which a
// single agent message or tool result easily exceeds; 32 MiB matches the
// API's request size limit, and the parser's buffer grows only as far as
// the largest event actually seen.
const DefaultMaxEventSize = 32 << 20

// Decoder turns the data of one event of type typ into a typed value. data is
// only valid during the call: a decoder that keeps bytes (an unknown event's
// raw JSON) must copy them.
type Decoder[E any] func(typ string, data []byte) (E, error)

// DecodeError reports an event whose data its decoder rejected. The stream
// goes on after it; the consumer decides whether to stop.
type DecodeError struct {
	Type string
	Err  error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("agentplatform: decoding %q event: %v", e.Type, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Source names the request a stream answers, for error messages.
type Source struct{ Method, Path string }

// Read yields the typed events of one event-stream body. It ends after the
// last event, after an `error` event (yielded as *apierror.Error), or after a
// read error (yielded wrapped). It does not close r.
func Read[E any](r io.Reader, maxEventSize int, src Source, decode Decoder[E]) iter.Seq2[E, error] {
	if maxEventSize <= 0 {
		maxEventSize = DefaultMaxEventSize
	}
	cfg := &sse.ReadConfig{MaxEventSize: maxEventSize}
	return func(yield func(E, error) bool) {
		var zero E
		for ev, err := range sse.Read(r, cfg) {
			if err != nil {
				yield(zero, fmt.Errorf("agentplatform: %s %s: reading event stream: %w", src.Method, src.Path, err))
				return
			}
			switch ev.Type {
			case "", "ping":
				continue
			case "error":
				err := apierr.FromStreamEvent(src.Method, src.Path, bytesOf(ev.Data))
				if f, ok := r.(failer); ok {
					f.Fail(err) // the body's span records how the stream ended
				}
				yield(zero, err)
				return
			}
			v, err := decode(ev.Type, bytesOf(ev.Data))
			if err != nil {
				if !yield(zero, &DecodeError{Type: ev.Type, Err: err}) {
					return
				}
				continue
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}

// failer is a body that records the error a stream ended with, such as the
// traced body of internal/pipeline.
type failer interface{ Fail(error) }

// bytesOf views s as bytes without copying. go-sse hands data over as a
// string; decoders only read it (the JSON decoder copies what it keeps), so
// the copy a conversion would make is pure cost on the hot path: one
// allocation an event, which would put the typed decoding of a message
// stream above the allocations of a plain bufio.Scanner and encoding/json
// (messages' BenchmarkStreamDecoding).
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Ended is the error a stream reports when reading it failed with err, as
// the Messages and chat streams report it: nil when the reader closed the
// stream itself (it then ends quietly); the context's error, naming the
// call, when the context ended; else err, where an *apierror.Error gets
// the request id and headers of the stream's response, which an error
// event's body may lack.
func Ended(ctx context.Context, closed bool, src Source, header http.Header, err error) error {
	switch {
	case closed:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("agentplatform: %s %s: %w", src.Method, src.Path, ctx.Err())
	}
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		if apiErr.RequestID == "" {
			apiErr.RequestID = header.Get("request-id")
		}
		apiErr.Header = header
	}
	return err
}
