package agentplatform_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

const modelPath = "/v1/models/" + models.VendorOpus55

// scripted is a test server whose handler gets the attempt's number (1 for
// the first request), and counts requests. Handlers that stall wait on
// r.Context() or on release, which is closed when the test ends.
type scripted struct {
	URL      string
	attempts atomic.Int32
	release  chan struct{}
}

func newScripted(t *testing.T, handle func(n int32, w http.ResponseWriter, r *http.Request)) *scripted {
	t.Helper()
	s := &scripted{release: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handle(s.attempts.Add(1), w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(s.release) }) // runs first: nothing stays blocked
	s.URL = srv.URL
	return s
}

// stall blocks until the client goes away or the test ends.
func (s *scripted) stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.release:
	}
}

func (s *scripted) client(t *testing.T, opts ...option.Option) *agentplatform.Client {
	t.Helper()
	base := []option.Option{option.WithBaseURL(s.URL), option.WithAPIKey("sk-test"), option.WithMaxRetryWait(time.Millisecond)}
	return newTestClient(t, append(base, opts...)...)
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_scripted")
	_, _ = io.WriteString(w, body)
}

const modelJSON = `{"type":"model","id":"vendor-opus-5-5","display_name":"Vendor Opus 5.5"}`

// TestResponseSizeIsCapped: a 2xx body past the limit fails the call with
// a typed error, is not read further (the server below never finishes its
// body) and is not retried. The limit is set per client or per call.
func TestResponseSizeIsCapped(t *testing.T) {
	noEnv(t)
	const limit = 1024
	var srv *scripted
	srv = newScripted(t, func(_ int32, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_big")
		switch r.URL.Query().Get("shape") {
		case "endless": // a chunked body that never ends
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"id":"`+strings.Repeat("x", 4*limit))
			w.(http.Flusher).Flush()
			srv.stall(r)
		default: // limit+1 bytes, with a Content-Length
			_, _ = io.WriteString(w, `{"id":"`+strings.Repeat("x", limit+1-len(`{"id":""}`))+`"}`)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a safety net, not an assertion
	defer cancel()

	for _, shape := range []string{"sized", "endless"} {
		srv.attempts.Store(0)
		client := srv.client(t, option.WithMaxResponseSize(limit))
		_, err := client.Models.List(ctx, models.ListParams{}, option.WithMiddleware(addQuery("shape", shape)))
		require.ErrorIs(t, err, apierror.ErrResponseTooLarge, shape)
		require.False(t, errors.Is(err, apierror.ErrMalformedResponse))
		var re *apierror.ResponseError
		require.ErrorAs(t, err, &re)
		require.EqualValues(t, limit, re.Limit)
		require.Equal(t, http.StatusOK, re.StatusCode)
		require.Equal(t, "GET", re.Method)
		require.Equal(t, "/v1/models", re.Path)
		require.Equal(t, "req_big", re.RequestID)
		require.Empty(t, re.Excerpt)
		require.Contains(t, err.Error(), "1024")
		require.EqualValues(t, 1, srv.attempts.Load(), "%s: not retried", shape)
	}

	// Per call, over the client's default; and a body of exactly the
	// limit passes.
	exact := newScripted(t, func(_ int32, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, modelJSON+strings.Repeat(" ", limit-len(modelJSON)))
	})
	client := exact.client(t)
	_, err := client.Models.Get(ctx, models.VendorOpus55, option.WithMaxResponseSize(limit-1))
	require.ErrorIs(t, err, apierror.ErrResponseTooLarge)
	m, err := client.Models.Get(ctx, models.VendorOpus55, option.WithMaxResponseSize(limit))
	require.NoError(t, err)
	require.Equal(t, models.VendorOpus55, m.ID)

	for _, n := range []int64{0, -1} {
		_, err = agentplatform.NewClient(option.WithMaxResponseSize(n))
		var ve *apierror.ValidationError
		require.ErrorAs(t, err, &ve)
		require.Equal(t, "max_response_size", ve.Field)
		_, err = client.Models.Get(ctx, models.VendorOpus55, option.WithMaxResponseSize(n))
		require.ErrorAs(t, err, &ve)
		require.Equal(t, "max_response_size", ve.Field)
	}
}

// addQuery is middleware that adds a query parameter to every attempt.
func addQuery(key, value string) option.Middleware {
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		q := r.URL.Query()
		q.Set(key, value)
		r.URL.RawQuery = q.Encode()
		return next(r)
	}
}

// TestMalformedSuccessBodiesAreTyped: a 2xx body that does not decode into
// the result (not JSON, empty, null, the wrong shape or types) is an
// *apierror.ResponseError matching ErrMalformedResponse, with the call,
// the request id, a short valid excerpt and the decoding error; its string
// quotes neither the body nor a header. It is not retried.
func TestMalformedSuccessBodiesAreTyped(t *testing.T) {
	noEnv(t)
	var body atomic.Value
	srv := newScripted(t, func(_ int32, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Echo", "CANARYheader0011")
		writeJSON(w, body.Load().(string))
	})
	client := srv.client(t)
	invalidUTF8 := strings.Repeat("\xff\xfeé", 200)
	cases := []struct{ name, body string }{
		{"not JSON", "CANARYbody0012 is not JSON"},
		{"HTML", "<html><body>proxy</body></html>"},
		{"empty", ""},
		{"null", "null"},
		{"null with spaces", " \n null \n"},
		{"wrong type", `{"id": 5}`},
		{"array", `[1, 2]`},
		{"string", `"vendor-opus-5-5"`},
		{"truncated", `{"id": "vendor-`},
		{"invalid UTF-8", invalidUTF8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.attempts.Store(0)
			body.Store(tc.body)
			_, err := client.Models.Get(context.Background(), models.VendorOpus55)
			require.ErrorIs(t, err, apierror.ErrMalformedResponse)
			require.False(t, errors.Is(err, apierror.ErrResponseTooLarge))
			var re *apierror.ResponseError
			require.ErrorAs(t, err, &re)
			require.Equal(t, "GET", re.Method)
			require.Equal(t, modelPath, re.Path)
			require.Equal(t, http.StatusOK, re.StatusCode)
			require.Equal(t, "req_scripted", re.RequestID)
			require.Zero(t, re.Limit)
			require.Error(t, re.Err)
			// The decoder's own error types stay inside the SDK: they will
			// change when it moves into the standard library.
			var syntactic *jsontext.SyntacticError
			var semantic *jsonv2.SemanticError
			require.False(t, errors.As(err, &syntactic) || errors.As(err, &semantic), "%T", re.Err)
			require.LessOrEqual(t, len(re.Excerpt), 256)
			require.True(t, utf8.ValidString(re.Excerpt))
			if len(tc.body) <= 256 && utf8.ValidString(tc.body) {
				require.Equal(t, tc.body, re.Excerpt)
			}
			msg := err.Error()
			require.Less(t, len(msg), 300, msg)
			require.NotContains(t, msg, "CANARYheader0011")
			require.NotContains(t, msg, "CANARYbody0012")
			var apiErr *apierror.Error
			require.False(t, errors.As(err, &apiErr), "not an API error: the API said 200")
			require.EqualValues(t, 1, srv.attempts.Load(), "not retried")
		})
	}
}

// TestStalledAndCutBodiesAreRetried: an attempt that stalls before its
// headers, stalls after them (the body never finishes) or is cut mid-body
// fails, and is retried like a connection error, within the per-attempt
// timeout. Each server stalls on its first attempt only and answers the
// second. A POST's retry carries the same Idempotency-Key.
func TestStalledAndCutBodiesAreRetried(t *testing.T) {
	noEnv(t)
	first := map[string]func(s *scripted, w http.ResponseWriter, r *http.Request){
		"stall before headers": func(s *scripted, _ http.ResponseWriter, r *http.Request) { s.stall(r) },
		"stall after headers": func(s *scripted, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"id":`)
			w.(http.Flusher).Flush()
			s.stall(r)
		},
		"cut body": func(_ *scripted, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(modelJSON)))
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, modelJSON[:10])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // closes the connection mid-body
		},
	}
	for name, stall := range first {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var keys []string
			var srv *scripted
			srv = newScripted(t, func(n int32, w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				keys = append(keys, r.Header.Get("Idempotency-Key"))
				mu.Unlock()
				if n == 1 {
					stall(srv, w, r)
					return
				}
				if r.Method == http.MethodPost {
					writeJSON(w, `{"type":"workspace","id":"wrkspc_1","name":"retried"}`)
					return
				}
				writeJSON(w, modelJSON)
			})
			// The timeout is short, but only behaviour is asserted: two
			// attempts and a result; and firstAttemptTimesOut lets it end
			// only the stalled attempt, however slow the machine.
			client := srv.client(t, option.WithRequestTimeout(200*time.Millisecond))
			m, err := client.Models.Get(context.Background(), models.VendorOpus55, firstAttemptTimesOut(t, srv))
			require.NoError(t, err)
			require.Equal(t, models.VendorOpus55, m.ID)
			require.EqualValues(t, 2, srv.attempts.Load())

			srv.attempts.Store(0)
			mu.Lock()
			keys = nil
			mu.Unlock()
			ws, err := client.Workspaces.Create(context.Background(), workspaces.CreateParams{Name: "retried"}, firstAttemptTimesOut(t, srv))
			require.NoError(t, err)
			require.Equal(t, "wrkspc_1", ws.ID)
			require.EqualValues(t, 2, srv.attempts.Load())
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, keys, 2)
			require.NotEmpty(t, keys[0])
			require.Equal(t, keys[0], keys[1])
		})
	}
}

// firstAttemptTimesOut is a per-call middleware under which the
// per-attempt timeout (option.WithRequestTimeout) ends the call's first
// attempt only, and only once srv has it. The first attempt is sent on a
// context of its own that takes on the attempt's end once srv has counted
// a request; later attempts are cut off from their timers. The timeout
// then decides only what the test means it to (the stalled first attempt
// fails, the answered second succeeds): on a slow machine it could
// otherwise end the first attempt before it reached the server, or the
// second before it was answered.
func firstAttemptTimesOut(t *testing.T, srv *scripted) option.Option {
	var n atomic.Int32
	return option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		detached := context.WithoutCancel(r.Context())
		if n.Add(1) > 1 {
			return next(r.WithContext(detached))
		}
		ctx, cancel := context.WithCancelCause(detached)
		context.AfterFunc(r.Context(), func() {
			for srv.attempts.Load() < 1 && t.Context().Err() == nil {
				time.Sleep(time.Millisecond)
			}
			cancel(context.Cause(r.Context()))
		})
		return next(r.WithContext(ctx))
	})
}
