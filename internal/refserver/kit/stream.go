package kit

import (
	"encoding/json"
	"net/http"
	"time"
)

// Frame is one server-sent event: `event: <Type>\ndata: <Data>\n\n`.
type Frame struct {
	Type string
	Data []byte
}

// PingFrame is the keep-alive event of the API's streams.
var PingFrame = Frame{Type: "ping", Data: []byte(`{"type":"ping"}`)}

// Flush sends what w holds, when it can.
func Flush(w http.ResponseWriter) {
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// StreamWriteTimeout bounds how long one write to a stream may block. A
// client that stops reading fills the socket buffers, and the next write
// would otherwise wait forever, holding the connection (and, for a session
// stream, its subscription); past the timeout the stream is dropped (the
// client reconnects and lists what it missed, as after any drop). A
// variable only so that a test can shorten it.
var StreamWriteTimeout = time.Minute

// StreamWriter writes one connection's frames and applies a
// Fault.StreamCutAfter to them. Call Finish when the stream is over.
type StreamWriter struct {
	C        *Call
	Interval time.Duration // keep-alive interval
	Cut      *Fault        // Fault.StreamCutAfter applied to this stream, or nil
	Written  int           // frames written, pings excluded by the caller
	rc       *http.ResponseController
	buf      []byte
}

// NewStreamWriter writes c's stream, with a keep-alive every interval and
// the fault that matched c's request, if any.
func NewStreamWriter(c *Call, interval time.Duration) *StreamWriter {
	return &StreamWriter{C: c, Interval: interval, Cut: c.Ex.StreamFault, rc: http.NewResponseController(c.W)}
}

// Finish clears the write deadline, which would otherwise outlive the
// stream on a kept-alive connection.
func (w *StreamWriter) Finish() {
	_ = w.rc.SetWriteDeadline(time.Time{})
}

// Write sends one frame, exactly `event: <type>\ndata: <json>\n\n`, and
// flushes it within StreamWriteTimeout. It reports false when the client is
// gone or has stopped reading.
func (w *StreamWriter) Write(fr Frame) bool {
	w.buf = AppendFrame(w.buf[:0], fr)
	_ = w.rc.SetWriteDeadline(time.Now().Add(StreamWriteTimeout))
	if _, err := w.C.W.Write(w.buf); err != nil {
		return false
	}
	if err := w.rc.Flush(); err != nil {
		return false
	}
	w.Written++
	return true
}

// AppendFrame appends fr in the event-stream form.
func AppendFrame(b []byte, fr Frame) []byte {
	b = append(b, "event: "...)
	b = append(b, fr.Type...)
	b = append(b, "\ndata: "...)
	b = append(b, fr.Data...)
	return append(b, "\n\n"...)
}

// CutNow applies a StreamCutAfter fault once its count is reached: with a
// Status, an error frame (the API's error body) and a clean end; without, the
// connection is dropped mid-stream. It reports whether the stream is over.
func (w *StreamWriter) CutNow() bool {
	if w.Cut == nil || w.Written < w.Cut.StreamCutAfter {
		return false
	}
	if w.Cut.Status != 0 {
		typ := w.Cut.ErrorType
		if typ == "" {
			typ = ErrorTypeForStatus(w.Cut.Status)
		}
		msg := w.Cut.Message
		if msg == "" {
			msg = DefaultFaultMessage(w.Cut.Status)
		}
		data, _ := json.Marshal(ErrorBody{Type: "error", Error: ErrorDetail{Type: typ, Message: msg}, RequestID: w.C.Ex.RequestID})
		w.C.Ex.ErrType = typ
		w.Write(Frame{Type: "error", Data: data})
		return true
	}
	w.C.Ex.Dropped = true
	DropConnection(w.C.W)
	return true
}
