package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"sync"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
	"github.com/agentplatform/agentplatform-go/internal/config"
)

// bufPool recycles response buffers: reading the whole body and then
// unmarshalling costs fewer allocations than a json.Decoder on the stream.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps one huge response from pinning memory in the pool.
const maxPooledBuffer = 1 << 20

// maxDrain bounds how much of an error body past apierr.MaxBodySize is
// read to keep the connection; past it the connection is given up.
const maxDrain = 64 << 10

// bufferedBody is a response body read in full during its attempt, so
// that a body that stalls or is cut is a failed attempt, retried like any
// other, rather than a failure after the retries are over. Close returns
// its buffer to the pool.
type bufferedBody struct {
	buf *bytes.Buffer
	lr  io.LimitedReader // reused for the read, to save an allocation
}

func (b *bufferedBody) Read(p []byte) (int, error) {
	if b.buf == nil {
		return 0, io.EOF
	}
	return b.buf.Read(p)
}

func (b *bufferedBody) Close() error {
	if buf := b.buf; buf != nil {
		b.buf = nil
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			bufPool.Put(buf)
		}
	}
	return nil
}

// bytes returns what is left to read, without copying.
func (b *bufferedBody) bytes() []byte {
	if b.buf == nil {
		return nil
	}
	return b.buf.Bytes()
}

// readResponse replaces resp's body by its content, read in full and
// closed. A 2xx body larger than limit is refused with an
// *apierror.ResponseError without reading the rest; any other body (an
// error, a redirect) is cut to apierr.MaxBodySize, which is all of it
// that is kept. c names the call in errors; it may be nil.
func readResponse(resp *http.Response, limit int64, c *call) error {
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	if !success {
		limit = apierr.MaxBodySize
	}
	if success && resp.ContentLength > limit {
		resp.Body.Close()
		return tooLarge(resp, limit, c)
	}
	b := &bufferedBody{buf: bufPool.Get().(*bytes.Buffer)}
	b.buf.Reset()
	if resp.ContentLength > 0 {
		b.buf.Grow(int(resp.ContentLength))
	}
	n := limit
	if n < math.MaxInt64 {
		n++ // one byte more tells a body of exactly limit bytes from a longer one
	}
	b.lr = io.LimitedReader{R: resp.Body, N: n}
	_, err := b.buf.ReadFrom(&b.lr)
	b.lr.R = nil
	switch {
	case err != nil:
		resp.Body.Close()
		b.Close()
		return err
	case int64(b.buf.Len()) > limit && success:
		resp.Body.Close() // without reading the rest: the connection is given up
		b.Close()
		return tooLarge(resp, limit, c)
	case int64(b.buf.Len()) > limit:
		b.buf.Truncate(int(limit))
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
	}
	resp.Body.Close()
	resp.Body = b
	return nil
}

func tooLarge(resp *http.Response, limit int64, c *call) error {
	var method, path string
	if c != nil {
		method, path = c.req.Method, c.req.Path
	}
	return apierror.ResponseTooLarge(method, path, resp.StatusCode, resp.Header, limit)
}

// decodeJSON unmarshals resp's body into out and closes it. A body that is
// not JSON, or does not fit out, or is null, is an *apierror.ResponseError.
func decodeJSON(req *Request, resp *http.Response, out any) error {
	b, err := buffered(req, resp)
	if err != nil {
		return err
	}
	defer b.Close()
	data := b.bytes()
	if u, ok := out.(json.Unmarshaler); ok {
		// The SDK's own types decode themselves; calling the method
		// directly saves encoding/json's validating pass over the body,
		// which the method's decoder makes anyway.
		err = u.UnmarshalJSON(data)
	} else {
		err = json.Unmarshal(data, out)
	}
	if err == nil && isNull(data) {
		err = errNull
	}
	if err != nil {
		return apierror.MalformedResponse(req.Method, req.Path, resp.StatusCode, resp.Header, data, err)
	}
	return nil
}

// buffered returns resp's body as read in full by its attempt.
func buffered(req *Request, resp *http.Response) (*bufferedBody, error) {
	b, ok := resp.Body.(*bufferedBody)
	if !ok { // the attempt transport reads every body of a call; this is only a safeguard
		if err := readResponse(resp, config.DefaultMaxResponseSize, nil); err != nil {
			return nil, fillCall(err, req)
		}
		b = resp.Body.(*bufferedBody)
	}
	return b, nil
}

// errNull is the cause of a JSON null where the call returns an object.
var errNull = errors.New("the body is null, not an object")

// isNull reports whether data is the JSON literal null, with any white
// space around it.
func isNull(data []byte) bool {
	return len(data) >= 4 && len(data) <= 64 && string(bytes.TrimSpace(data)) == "null"
}

// fillCall names req in a typed error that was built without it.
func fillCall(err error, req *Request) error {
	if re, ok := err.(*apierror.ResponseError); ok && re.Method == "" {
		re.Method, re.Path = req.Method, req.Path
	}
	return err
}

// readBody reads at most limit bytes of resp's body and closes it. The rest of
// an oversized body is drained only up to a bound, then the connection is
// given up rather than read forever.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
	}
	return b, err
}
