package wiretest

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/agentplatform/agentplatform-go/option"
)

// Recorder keeps the body of every successful response a client receives
// (a stream's too, once it has ended), so that a test can check the SDK's
// values against the JSON they were decoded from. Give its Option to the
// client.
type Recorder struct {
	mu     sync.Mutex
	bodies []Recorded
}

// Recorded is one response: the request's method and path, and the body.
type Recorded struct {
	Method, Path string
	Body         []byte
}

// Option returns the middleware that records.
func (r *Recorder) Option() option.Option {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp.StatusCode >= 300 {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		r.bodies = append(r.bodies, Recorded{req.Method, req.URL.Path, body})
		r.mu.Unlock()
		return resp, nil
	})
}

// Bodies returns what was recorded, in order.
func (r *Recorder) Bodies() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.bodies...)
}

// Last returns the body of the latest response.
func (r *Recorder) Last(tb testing.TB) []byte {
	tb.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) == 0 {
		tb.Fatal("no response was recorded")
	}
	return r.bodies[len(r.bodies)-1].Body
}
