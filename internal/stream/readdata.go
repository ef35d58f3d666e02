package stream

import (
	"fmt"
	"io"
	"iter"

	sse "github.com/tmaxmax/go-sse"
)

// DoneData is the data of the frame that ends a data-only stream.
const DoneData = "[DONE]"

// ErrNoDone is yielded (wrapped, with the request) when a data-only stream
// ends before its [DONE] frame. It wraps io.ErrUnexpectedEOF, so that
// errors.Is(err, io.ErrUnexpectedEOF) holds.
var ErrNoDone = fmt.Errorf("event stream ended before %s: %w", DoneData, io.ErrUnexpectedEOF)

// ReadData yields the data of each event of a data-only event stream, the
// OpenAI style: frames of `data:` lines with no `event:` line, ended by
// `data: [DONE]`. Read is not for such streams: it skips untyped events.
//
// The stream ends after [DONE], without an error; after a read error
// (yielded wrapped); or, when the body ends before [DONE], with an error
// wrapping ErrNoDone. Events with empty data are skipped, and so are typed
// events (an `event:` line other than "message", the SSE default name),
// which belong to Read; comment lines such as ": keep-alive" are not events
// at all. The data of an error frame is yielded like any other: its shape
// is the API's to define, not the reader's. data is valid only until the
// next iteration. ReadData does not close r.
func ReadData(r io.Reader, maxEventSize int, src Source) iter.Seq2[[]byte, error] {
	if maxEventSize <= 0 {
		maxEventSize = DefaultMaxEventSize
	}
	cfg := &sse.ReadConfig{MaxEventSize: maxEventSize}
	return func(yield func([]byte, error) bool) {
		for ev, err := range sse.Read(r, cfg) {
			if err != nil {
				yield(nil, fmt.Errorf("agentplatform: %s %s: reading event stream: %w", src.Method, src.Path, err))
				return
			}
			if ev.Data == "" || (ev.Type != "" && ev.Type != "message") {
				continue
			}
			if ev.Data == DoneData {
				return
			}
			if !yield(bytesOf(ev.Data), nil) {
				return
			}
		}
		yield(nil, fmt.Errorf("agentplatform: %s %s: %w", src.Method, src.Path, ErrNoDone))
	}
}
