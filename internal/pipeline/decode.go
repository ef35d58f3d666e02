package pipeline

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// bufPool recycles response buffers: reading the whole body and then
// unmarshalling costs fewer allocations than a json.Decoder on the stream.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps one huge response from pinning memory in the pool.
const maxPooledBuffer = 1 << 20

// decodeJSON reads and closes resp's body and unmarshals it into out.
func decodeJSON(resp *http.Response, out any) error {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			bufPool.Put(buf)
		}
	}()
	buf.Reset()
	_, err := buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	return json.Unmarshal(buf.Bytes(), out)
}

// readBody reads at most limit bytes of resp's body and closes it. The rest of
// an oversized body is drained only up to a bound, then the connection is
// given up rather than read forever.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	}
	return b, err
}
