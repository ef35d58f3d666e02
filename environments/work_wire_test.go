package environments_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// The work queue's requests and the answers only a queue gives (null, no
// body, 412), checked on the wire against a stub that answers what each
// test sets: the end-to-end behaviour is tested against the reference
// server in work_test.go.

// stubbed is one request the stub received.
type stubbed struct {
	Method, Path, Query string
	Header              http.Header
	Body                string
}

type stub struct {
	mu     sync.Mutex
	got    []stubbed
	status int
	body   string
	srv    *httptest.Server
}

func newStub(t *testing.T) *stub {
	s := &stub{status: http.StatusOK, body: workQueued}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.got = append(s.got, stubbed{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(b)})
		status, body := s.status, s.body
		s.mu.Unlock()
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *stub) answer(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body = status, body
}

func (s *stub) last(t *testing.T) stubbed {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.got)
	return s.got[len(s.got)-1]
}

func (s *stub) client(t *testing.T, opts ...option.Option) *agentplatform.Client {
	t.Helper()
	c, err := agentplatform.NewClient(append([]option.Option{
		option.WithBaseURL(s.srv.URL), option.WithAPIKey("sk-vendor-api01-client"), option.WithMaxRetries(0),
	}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

const envKey = "sk-vendor-env01-0123456789"

// TestWorkEnvironmentKeyPerCall: option.WithAPIKey given to one call
// sends the environment key as a bearer token on that call only.
func TestWorkEnvironmentKeyPerCall(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	_, err := c.Environments.Work.Poll(ctx, "env_01", environments.PollParams{}, option.WithAPIKey(envKey))
	require.NoError(t, err)
	got := s.last(t)
	require.Equal(t, "Bearer "+envKey, got.Header.Get("Authorization"))
	require.Empty(t, got.Header.Get("X-Api-Key"))
	require.Equal(t, "managed-agents-2026-04-01", got.Header.Get("Vendor-Beta"))

	_, err = c.Environments.Work.Get(ctx, "env_01", "work_01")
	require.NoError(t, err)
	require.Equal(t, "Bearer sk-vendor-api01-client", s.last(t).Header.Get("Authorization"), "the client's key otherwise")
}

func TestWorkPollRequest(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	w, err := c.Environments.Work.Poll(ctx, "env_01", environments.PollParams{
		Block: 250 * time.Millisecond, ReclaimOlderThan: 1500 * time.Millisecond, WorkerID: "runner-7",
	})
	require.NoError(t, err)
	require.Equal(t, "work_011CZkZDLs7fYzm1hXNPeRjv", w.ID)
	got := s.last(t)
	require.Equal(t, "GET /v1/environments/env_01/work/poll", got.Method+" "+got.Path)
	require.Equal(t, "block_ms=250&reclaim_older_than_ms=1500", got.Query)
	require.Equal(t, "runner-7", got.Header.Get("Vendor-Worker-Id"))

	_, err = c.Environments.Work.Poll(ctx, "env_01", environments.PollParams{})
	require.NoError(t, err)
	got = s.last(t)
	require.Empty(t, got.Query, "zero values are not sent")
	require.Empty(t, got.Header.Values("Vendor-Worker-Id"))
}

// TestWorkPollWithoutWork: a null body, an empty one, or a 204 is "no
// work": nil and no error.
func TestWorkPollWithoutWork(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	for _, a := range []struct {
		status int
		body   string
	}{{200, "null"}, {200, " null\n"}, {200, ""}, {204, ""}} {
		s.answer(a.status, a.body)
		w, err := c.Environments.Work.Poll(ctx, "env_01", environments.PollParams{Block: 10 * time.Millisecond})
		require.NoError(t, err, "%d %q", a.status, a.body)
		require.Nil(t, w, "%d %q", a.status, a.body)
	}
	s.answer(200, "[]")
	_, err := c.Environments.Work.Poll(ctx, "env_01", environments.PollParams{})
	var re *apierror.ResponseError
	require.ErrorAs(t, err, &re, "anything else is malformed")
}

func TestWorkStopRequest(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	w, err := c.Environments.Work.Stop(ctx, "env_01", "work_01", environments.StopParams{Force: true})
	require.NoError(t, err)
	require.NotNil(t, w)
	got := s.last(t)
	require.Equal(t, "POST /v1/environments/env_01/work/work_01/stop", got.Method+" "+got.Path)
	require.JSONEq(t, `{"force":true}`, got.Body)

	_, err = c.Environments.Work.Stop(ctx, "env_01", "work_01", environments.StopParams{})
	require.NoError(t, err)
	require.JSONEq(t, `{}`, s.last(t).Body)

	for _, status := range []int{200, 202, 204} {
		s.answer(status, "")
		w, err := c.Environments.Work.Stop(ctx, "env_01", "work_01", environments.StopParams{})
		require.NoError(t, err, status)
		require.Nil(t, w, "a success without a body")
	}
}

func TestWorkOtherRequests(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	v := "v"
	for _, tc := range []struct {
		call         func() error
		method, path string
		query, body  string
	}{
		{func() error { _, err := c.Environments.Work.Ack(ctx, "env_01", "work_01"); return err },
			"POST", "/v1/environments/env_01/work/work_01/ack", "", ""},
		{func() error { _, err := c.Environments.Work.Get(ctx, "env_01", "work_01"); return err },
			"GET", "/v1/environments/env_01/work/work_01", "", ""},
		{func() error {
			_, err := c.Environments.Work.Update(ctx, "env_01", "work_01", environments.WorkUpdateParams{Metadata: map[string]*string{"k": &v, "gone": nil}})
			return err
		}, "POST", "/v1/environments/env_01/work/work_01", "", `{"metadata":{"k":"v","gone":null}}`},
	} {
		require.NoError(t, tc.call())
		got := s.last(t)
		require.Equal(t, tc.method+" "+tc.path, got.Method+" "+got.Path)
		require.Equal(t, tc.query, got.Query)
		if tc.body == "" {
			require.Empty(t, got.Body)
		} else {
			require.JSONEq(t, tc.body, got.Body)
		}
	}

	s.answer(200, heartbeatSample)
	hb, err := c.Environments.Work.Heartbeat(ctx, "env_01", "work_01", environments.HeartbeatParams{
		ExpectedLastHeartbeat: environments.NoHeartbeat, DesiredTTL: 45 * time.Second,
	})
	require.NoError(t, err)
	require.Equal(t, 45*time.Second, hb.TTL)
	got := s.last(t)
	require.Equal(t, "POST /v1/environments/env_01/work/work_01/heartbeat", got.Method+" "+got.Path)
	require.Equal(t, "desired_ttl_seconds=45&expected_last_heartbeat=NO_HEARTBEAT", got.Query)

	s.answer(200, statsBusy)
	st, err := c.Environments.Work.Stats(ctx, "env_01")
	require.NoError(t, err)
	require.Equal(t, 3, st.Depth)
	require.Equal(t, "GET /v1/environments/env_01/work/stats", s.last(t).Method+" "+s.last(t).Path)

	s.answer(200, `{"data":[`+workQueued+`],"next_page":null}`)
	page, err := c.Environments.Work.List(ctx, "env_01", environments.WorkListParams{Page: "p2", Limit: 100})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.False(t, page.HasMore())
	got = s.last(t)
	require.Equal(t, "GET /v1/environments/env_01/work", got.Method+" "+got.Path)
	require.Equal(t, "page=p2&limit=100", got.Query)
}

// TestWorkHeartbeatLeaseLost: a 412 is an ErrLeaseLost that carries the
// server's view of the lease and is still the API error.
func TestWorkHeartbeatLeaseLost(t *testing.T) {
	s := newStub(t)
	c := s.client(t)
	s.answer(412, `{"type":"error","error":{"type":"invalid_request_error",
		"message":"expected_last_heartbeat does not match the lease of work item `+"`work_01`"+`",
		"details":{"current_state":{"state":"active","ttl_seconds":30,"last_heartbeat":"hb_2"}}},"request_id":"req_1"}`)
	_, err := c.Environments.Work.Heartbeat(ctx, "env_01", "work_01", environments.HeartbeatParams{ExpectedLastHeartbeat: "hb_1"})
	require.ErrorIs(t, err, environments.ErrLeaseLost)
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	var lost *environments.LeaseLostError
	require.ErrorAs(t, err, &lost)
	require.Equal(t, &environments.LeaseState{State: environments.WorkActive, TTL: 30 * time.Second, LastHeartbeat: "hb_2"}, lost.Current)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 412, apiErr.StatusCode)
	require.Equal(t, apiErr.Error(), err.Error())

	s.answer(412, `{"type":"error","error":{"type":"invalid_request_error","message":"lost"}}`)
	_, err = c.Environments.Work.Heartbeat(ctx, "env_01", "work_01", environments.HeartbeatParams{ExpectedLastHeartbeat: "hb_1"})
	require.ErrorAs(t, err, &lost)
	require.Nil(t, lost.Current, "no details")

	s.answer(409, `{"type":"error","error":{"type":"conflict_error","message":"busy"}}`)
	_, err = c.Environments.Work.Heartbeat(ctx, "env_01", "work_01", environments.HeartbeatParams{ExpectedLastHeartbeat: "hb_1"})
	require.Error(t, err)
	require.False(t, errors.Is(err, environments.ErrLeaseLost), "only a 412")
}

// TestWorkSpans: each method's CLIENT span has its docs/tracing.md name
// and the environment and work item ids.
func TestWorkSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	s := newStub(t)
	c := s.client(t, option.WithTracerProvider(tp))
	w := c.Environments.Work
	for _, tc := range []struct {
		span   string
		work   bool
		answer string
		call   func() error
	}{
		{"vendor.environments.work.poll", false, workQueued, func() error { _, err := w.Poll(ctx, "env_01", environments.PollParams{}); return err }},
		{"vendor.environments.work.ack", true, workQueued, func() error { _, err := w.Ack(ctx, "env_01", "work_01"); return err }},
		{"vendor.environments.work.heartbeat", true, heartbeatSample, func() error {
			_, err := w.Heartbeat(ctx, "env_01", "work_01", environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat})
			return err
		}},
		{"vendor.environments.work.stop", true, workQueued, func() error {
			_, err := w.Stop(ctx, "env_01", "work_01", environments.StopParams{})
			return err
		}},
		{"vendor.environments.work.list", false, `{"data":[],"next_page":null}`, func() error {
			_, err := w.List(ctx, "env_01", environments.WorkListParams{})
			return err
		}},
		{"vendor.environments.work.stats", false, statsEmpty, func() error { _, err := w.Stats(ctx, "env_01"); return err }},
		{"vendor.environments.work.retrieve", true, workQueued, func() error { _, err := w.Get(ctx, "env_01", "work_01"); return err }},
		{"vendor.environments.work.update", true, workQueued, func() error {
			_, err := w.Update(ctx, "env_01", "work_01", environments.WorkUpdateParams{})
			return err
		}},
	} {
		s.answer(200, tc.answer)
		require.NoError(t, tc.call(), tc.span)
		span := spantest.One(t, rec, tc.span)
		attrs := spantest.Attrs(span)
		require.Equal(t, "env_01", attrs[tracing.EnvironmentID].AsString(), tc.span)
		if tc.work {
			require.Equal(t, "work_01", attrs[tracing.WorkID].AsString(), tc.span)
		} else {
			require.NotContains(t, attrs, tracing.WorkID, tc.span)
		}
	}
}
