package kit

import (
	"bytes"
	"net/http"
)

// ResponseBuffer holds a handler's status and body until the pipeline decides
// what to do with them. Buffering is what lets the server
//   - record the response for idempotent replay,
//   - run a handler and then drop the connection (Fault.DropAfterHandling),
//   - replace a half-written response with a clean 500 after a panic.
//
// Headers are not buffered: Header returns the real writer's map, which
// net/http sends only on the first WriteHeader. A streaming handler calls
// Flush, which commits what is buffered and makes later writes pass through.
type ResponseBuffer struct {
	w         http.ResponseWriter
	status    int
	body      bytes.Buffer
	Committed bool
	// OpenAIErrors: errors on this response take the OpenAI shape
	// (chat completions, docs/messages-wire.md 9.5).
	OpenAIErrors bool
}

// NewResponseBuffer buffers what a handler writes to w.
func NewResponseBuffer(w http.ResponseWriter) *ResponseBuffer {
	return &ResponseBuffer{w: w}
}

func (b *ResponseBuffer) Header() http.Header { return b.w.Header() }

func (b *ResponseBuffer) WriteHeader(status int) {
	if b.status != 0 {
		return
	}
	b.status = status
	if b.Committed {
		b.w.WriteHeader(status)
	}
}

func (b *ResponseBuffer) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.WriteHeader(http.StatusOK)
	}
	if b.Committed {
		return b.w.Write(p)
	}
	return b.body.Write(p)
}

// Flush commits the response so far and flushes the connection; from then on
// the response streams.
func (b *ResponseBuffer) Flush() {
	b.Commit()
	if f, ok := b.w.(http.Flusher); ok {
		f.Flush()
	}
}

// Bytes is the buffered body (empty once committed).
func (b *ResponseBuffer) Bytes() []byte { return b.body.Bytes() }

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (b *ResponseBuffer) Unwrap() http.ResponseWriter { return b.w }

// Commit sends the buffered status and body. It is idempotent.
func (b *ResponseBuffer) Commit() {
	if b.Committed {
		return
	}
	b.Committed = true
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.w.WriteHeader(b.status)
	if b.body.Len() > 0 {
		_, _ = b.w.Write(b.body.Bytes())
		b.body.Reset()
	}
}

// Discard forgets an uncommitted response so another can be written.
func (b *ResponseBuffer) Discard() {
	if !b.Committed {
		b.status = 0
		b.body.Reset()
	}
}

// StatusCode is the status sent or about to be sent (200 when nothing was
// written, as net/http would do).
func (b *ResponseBuffer) StatusCode() int {
	if b.status == 0 {
		return http.StatusOK
	}
	return b.status
}
