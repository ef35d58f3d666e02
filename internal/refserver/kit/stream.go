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

// StreamWriter writes one connection's frames and applies a
// Fault.StreamCutAfter to them.
type StreamWriter struct {
	C        *Call
	Interval time.Duration // keep-alive interval
	Cut      *Fault        // Fault.StreamCutAfter applied to this stream, or nil
	Written  int           // frames written, pings excluded by the caller
	buf      []byte
}

// Write sends one frame, exactly `event: <type>\ndata: <json>\n\n`, and
// flushes it. It reports false when the client is gone.
func (w *StreamWriter) Write(fr Frame) bool {
	w.buf = AppendFrame(w.buf[:0], fr)
	if _, err := w.C.W.Write(w.buf); err != nil {
		return false
	}
	Flush(w.C.W)
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
