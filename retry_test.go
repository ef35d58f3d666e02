package agentplatform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

const modelsPath = "/v1/models"

func TestRetriedStatuses(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	for _, status := range []int{408, 409, 429, 500, 502, 503, 504, 529} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			env.Server.ResetRequests()
			env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: status})
			_, err := client.Models.List(context.Background(), models.ListParams{})
			require.NoError(t, err)
			require.Equal(t, 2, env.Count("GET", modelsPath))
		})
	}
}

func TestNotRetriedStatuses(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	for _, status := range []int{400, 401, 403, 404, 413, 422} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			env.Server.ResetRequests()
			env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: status})
			_, err := client.Models.List(context.Background(), models.ListParams{})
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, status, apiErr.StatusCode)
			require.Equal(t, 1, env.Count("GET", modelsPath))
		})
	}
}

func TestShouldRetryHeaderOverridesStatus(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 400, Header: http.Header{"X-Should-Retry": {"true"}}})
	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, 2, env.Count("GET", modelsPath))

	env.Server.ResetRequests()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503, Header: http.Header{"X-Should-Retry": {"false"}}})
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, apierror.ErrServer)
	require.Equal(t, 1, env.Count("GET", modelsPath))
}

func TestRetriesRunOutAndKeepTheLastBody(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 529, Message: "busy", Times: 10})
	_, err := env.Client(t).Models.List(context.Background(), models.ListParams{})
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 529, apiErr.StatusCode)
	require.Equal(t, apierror.TypeOverloaded, apiErr.Type)
	require.Equal(t, "busy", apiErr.Message)
	require.Contains(t, string(apiErr.Body), `"overloaded_error"`)
	require.ErrorIs(t, err, apierror.ErrOverloaded)
	require.Equal(t, 3, env.Count("GET", modelsPath), "default: 2 retries")

	env.Server.ResetRequests()
	env.Server.ClearFaults()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503, Times: 10})
	_, err = env.Client(t, option.WithMaxRetries(4)).Models.List(context.Background(), models.ListParams{})
	require.Error(t, err)
	require.Equal(t, 5, env.Count("GET", modelsPath))

	env.Server.ResetRequests()
	_, err = env.Client(t).Models.List(context.Background(), models.ListParams{}, option.WithMaxRetries(0))
	require.Error(t, err)
	require.Equal(t, 1, env.Count("GET", modelsPath))

	_, err = env.Client(t).Models.List(context.Background(), models.ListParams{}, option.WithMaxRetries(-1))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = agentplatform.NewClient(option.WithMaxRetries(-1))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

func TestConnectionErrorsAreRetried(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t, reftest.FreshConnections())
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Drop: true})
	_, err := client.Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, 2, env.Count("GET", modelsPath))

	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Drop: true})
	_, err = client.Models.List(context.Background(), models.ListParams{}, option.WithMaxRetries(0))
	require.ErrorContains(t, err, "EOF", "without retries the dropped connection is the caller's error")
}

// retryWaits records the wait of every retry, as the client logs it.
type retryWaits struct{ buf bytes.Buffer }

func (w *retryWaits) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(&w.buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (w *retryWaits) waits(t *testing.T) []time.Duration {
	var out []time.Duration
	for _, line := range strings.Split(w.buf.String(), "\n") {
		var rec struct {
			Msg  string        `json:"msg"`
			Wait time.Duration `json:"wait"`
		}
		if line == "" {
			continue
		}
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		if rec.Msg == "agentplatform: retrying" {
			out = append(out, rec.Wait)
		}
	}
	return out
}

func TestRetryWaits(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		header  http.Header
		maxWait time.Duration
		want    func(time.Duration) bool
	}{
		{"retry-after-ms", http.Header{"Retry-After-Ms": {"30"}}, time.Minute,
			func(d time.Duration) bool { return d == 30*time.Millisecond }},
		{"retry-after-ms wins over retry-after", http.Header{"Retry-After-Ms": {"20"}, "Retry-After": {"9"}}, time.Minute,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after seconds", http.Header{"Retry-After": {"0.04"}}, time.Minute,
			func(d time.Duration) bool { return d == 40*time.Millisecond }},
		{"retry-after capped by the maximum wait", http.Header{"Retry-After": {"30"}}, 25 * time.Millisecond,
			func(d time.Duration) bool { return d == 25*time.Millisecond }},
		{"retry-after-ms capped", http.Header{"Retry-After-Ms": {"60000"}}, 15 * time.Millisecond,
			func(d time.Duration) bool { return d == 15*time.Millisecond }},
		{"retry-after as an HTTP date in the past", http.Header{"Retry-After": {time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)}}, time.Minute,
			func(d time.Duration) bool { return d == 0 }},
		{"retry-after as an HTTP date, capped", http.Header{"Retry-After": {time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}}, 10 * time.Millisecond,
			func(d time.Duration) bool { return d == 10*time.Millisecond }},
		{"no header: backoff with up to 25% jitter below the cap", nil, 40 * time.Millisecond,
			func(d time.Duration) bool { return d > 30*time.Millisecond && d <= 40*time.Millisecond }},
		{"unparseable header: backoff", http.Header{"Retry-After": {"soon"}}, 40 * time.Millisecond,
			func(d time.Duration) bool { return d > 30*time.Millisecond && d <= 40*time.Millisecond }},
		// Values too large for a time.Duration are capped, not converted
		// into garbage; negative ones and NaN ask for nothing.
		{"retry-after 1e10 seconds: capped", http.Header{"Retry-After": {"1e10"}}, 20 * time.Millisecond,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after of twenty digits: capped", http.Header{"Retry-After": {"99999999999999999999"}}, 20 * time.Millisecond,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after inf: capped", http.Header{"Retry-After": {"inf"}}, 20 * time.Millisecond,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after-ms 1e300: capped", http.Header{"Retry-After-Ms": {"1e300"}}, 20 * time.Millisecond,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after-ms past float64: capped", http.Header{"Retry-After-Ms": {"1e400"}}, 20 * time.Millisecond,
			func(d time.Duration) bool { return d == 20*time.Millisecond }},
		{"retry-after NaN: backoff", http.Header{"Retry-After": {"NaN"}}, 40 * time.Millisecond,
			func(d time.Duration) bool { return d > 30*time.Millisecond && d <= 40*time.Millisecond }},
		{"retry-after negative: backoff", http.Header{"Retry-After": {"-5"}}, 40 * time.Millisecond,
			func(d time.Duration) bool { return d > 30*time.Millisecond && d <= 40*time.Millisecond }},
		{"retry-after-ms -inf: backoff", http.Header{"Retry-After-Ms": {"-inf"}}, 40 * time.Millisecond,
			func(d time.Duration) bool { return d > 30*time.Millisecond && d <= 40*time.Millisecond }},
	}
	t.Run("per-call cap", func(t *testing.T) {
		var w retryWaits
		env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 429, Header: http.Header{"Retry-After": {"30"}}})
		client := env.Client(t, option.WithLogger(w.logger()), option.WithMaxRetryWait(time.Minute))
		_, err := client.Models.List(ctx, models.ListParams{}, option.WithMaxRetryWait(7*time.Millisecond))
		require.NoError(t, err)
		require.Equal(t, []time.Duration{7 * time.Millisecond}, w.waits(t))
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var w retryWaits
			env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 429, Header: tc.header})
			client := env.Client(t, option.WithLogger(w.logger()), option.WithMaxRetryWait(tc.maxWait))
			_, err := client.Models.List(ctx, models.ListParams{})
			require.NoError(t, err)
			waits := w.waits(t)
			require.Len(t, waits, 1)
			require.True(t, tc.want(waits[0]), "wait %v", waits[0])
		})
	}
}

func TestCancellationStopsARetryWait(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	// The server asks for an hour's wait; the context is cancelled as soon
	// as the first answer arrives.
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503, Header: http.Header{"Retry-After": {"3600"}}})
	cancelAfterResponse := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		cancel()
		return resp, err
	}
	client := env.Client(t, option.WithMaxRetryWait(2*time.Hour), option.WithMiddleware(cancelAfterResponse))
	done := make(chan error, 1)
	go func() {
		_, err := client.Models.List(ctx, models.ListParams{})
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute): // far below the hour the server asked for, far above a prompt return
		t.Fatal("the call kept waiting after its context was cancelled")
	}
	require.Equal(t, 1, env.Count("GET", modelsPath))
}

func TestRequestTimeoutAppliesToEachAttempt(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	ctx := context.Background()

	// The first attempt hangs (held here until its context ends, so only
	// its timeout can end it); the second goes on to the server. The
	// second is cut off from its own timer, so that it answers however
	// slow the machine is: its success shows that the first attempt's
	// timeout did not end the call.
	var attempts atomic.Int32
	firstEnded := make(chan error, 1)
	hangFirst := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		if attempts.Add(1) == 1 {
			<-r.Context().Done()
			firstEnded <- context.Cause(r.Context())
			return nil, context.Cause(r.Context())
		}
		return next(r.WithContext(context.WithoutCancel(r.Context())))
	}
	client := env.Client(t, option.WithRequestTimeout(200*time.Millisecond), option.WithMiddleware(hangFirst))
	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, int32(2), attempts.Load())
	cause := <-firstEnded
	require.ErrorIs(t, cause, context.DeadlineExceeded, "the first attempt's own timeout ended it")
	require.ErrorContains(t, cause, "timed out")
	require.Equal(t, 1, env.Count("GET", modelsPath), "the second attempt reached the server")

	// Per call, without retries: the timeout surfaces as a deadline error.
	// The server holds the request for an hour, so the timeout comes first
	// wherever it meets the attempt.
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Delay: time.Hour})
	_, err = env.Client(t).Models.List(ctx, models.ListParams{},
		option.WithRequestTimeout(100*time.Millisecond), option.WithMaxRetries(0))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "timed out")
	env.Server.ClearFaults() // the attempt may have ended before it reached the server

	_, err = agentplatform.NewClient(option.WithRequestTimeout(-time.Second))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = env.Client(t).Models.List(ctx, models.ListParams{}, option.WithMaxRetryWait(-time.Second))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

// TestContextDeadlineEndsTheCall: the caller's deadline passing ends the
// call and is not retried. The server holds the request for an hour, and
// the deadline (reftest.Expiring) passes once the request is there: on a
// slow machine a timeout could pass before the request was even sent.
func TestContextDeadlineEndsTheCall(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Delay: time.Hour})
	ctx, expire := reftest.Expiring(context.Background())
	defer expire()
	reftest.When(t, env.FaultsTaken(t), func() error { expire(); return nil })
	_, err := env.Client(t).Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Equal(t, 1, env.Count("GET", modelsPath), "the caller's deadline is not retried")
}

func TestPostRetryIsNotPerformedTwice(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	ctx := context.Background()
	const path = "/v1/organizations/workspaces"
	// The server creates the workspace, then the connection drops before the
	// answer: the retry carries the same Idempotency-Key and gets the first result.
	env.Server.InjectFault(refserver.Fault{Method: "POST", Path: path, DropAfterHandling: true})
	ws, err := env.Client(t, reftest.FreshConnections()).Workspaces.Create(ctx, workspaces.CreateParams{Name: "exactly-once"})
	require.NoError(t, err)

	var keys []string
	for _, r := range env.Server.Requests() {
		if r.Method == "POST" && r.Path == path {
			keys = append(keys, r.Header.Get("Idempotency-Key"))
		}
	}
	require.Len(t, keys, 2)
	require.NotEmpty(t, keys[0])
	require.Equal(t, keys[0], keys[1])

	n := 0
	for w, err := range env.Client(t).Workspaces.All(ctx, workspaces.ListParams{}) {
		require.NoError(t, err)
		if w.Name == "exactly-once" {
			n++
			require.Equal(t, ws.ID, w.ID)
		}
	}
	require.Equal(t, 1, n)

	// Each call has its own key; GET requests have none.
	_, err = env.Client(t).Workspaces.Create(ctx, workspaces.CreateParams{Name: "another"})
	require.NoError(t, err)
	require.NotEqual(t, keys[0], last(t, env, "POST", path).Header.Get("Idempotency-Key"))
	require.Empty(t, last(t, env, "GET", path).Header.Get("Idempotency-Key"))
}

// TestAnAnswerReceivedInFullIsKept: when the caller's context ends after
// the final answer has arrived in full, the call returns that answer (the
// server did the work) rather than the context's error. A retryable answer
// is not retried then.
func TestAnAnswerReceivedInFullIsKept(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	// The middleware takes in the whole answer, then the caller goes away.
	var leave context.CancelFunc
	receiveThenLeave := func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
		}
		leave()
		return resp, err
	}
	client := env.Client(t, option.WithMiddleware(receiveThenLeave))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leave = cancel
	m, err := client.Models.Get(ctx, models.VendorOpus55)
	require.NoError(t, err)
	require.Equal(t, models.VendorOpus55, m.ID)

	env.Server.ResetRequests()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503})
	ctx, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	leave = cancel2
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, env.Count("GET", modelsPath))
}
