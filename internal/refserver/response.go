package refserver

import (
	"bytes"
	"net/http"
)

// responseBuffer holds a handler's status and body until the pipeline decides
// what to do with them. Buffering is what lets the server
//   - record the response for idempotent replay,
//   - run a handler and then drop the connection (Fault.DropAfterHandling),
//   - replace a half-written response with a clean 500 after a panic.
//
// Headers are not buffered: Header returns the real writer's map, which
// net/http sends only on the first WriteHeader. A streaming handler calls
// Flush, which commits what is buffered and makes later writes pass through.
type responseBuffer struct {
	w         http.ResponseWriter
	status    int
	body      bytes.Buffer
	committed bool
	// openAIErrors: errors on this response take the OpenAI shape
	// (chat completions, docs/messages-wire.md 9.5).
	openAIErrors bool
}

func newResponseBuffer(w http.ResponseWriter) *responseBuffer {
	return &responseBuffer{w: w}
}

func (b *responseBuffer) Header() http.Header { return b.w.Header() }

func (b *responseBuffer) WriteHeader(status int) {
	if b.status != 0 {
		return
	}
	b.status = status
	if b.committed {
		b.w.WriteHeader(status)
	}
}

func (b *responseBuffer) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.WriteHeader(http.StatusOK)
	}
	if b.committed {
		return b.w.Write(p)
	}
	return b.body.Write(p)
}

// Flush commits the response so far and flushes the connection; from then on
// the response streams.
func (b *responseBuffer) Flush() {
	b.commit()
	if f, ok := b.w.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (b *responseBuffer) Unwrap() http.ResponseWriter { return b.w }

// commit sends the buffered status and body. It is idempotent.
func (b *responseBuffer) commit() {
	if b.committed {
		return
	}
	b.committed = true
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.w.WriteHeader(b.status)
	if b.body.Len() > 0 {
		_, _ = b.w.Write(b.body.Bytes())
		b.body.Reset()
	}
}

// discard forgets an uncommitted response so another can be written.
func (b *responseBuffer) discard() {
	if !b.committed {
		b.status = 0
		b.body.Reset()
	}
}

// statusCode is the status sent or about to be sent (200 when nothing was
// written, as net/http would do).
func (b *responseBuffer) statusCode() int {
	if b.status == 0 {
		return http.StatusOK
	}
	return b.status
}
