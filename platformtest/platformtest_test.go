package platformtest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// New's server answers its client with the seeded credentials, and stops
// when the test ends.
func TestNewServesUntilTheTestEnds(t *testing.T) {
	var url string
	t.Run("test", func(t *testing.T) {
		srv, client := platformtest.New(t)
		url = srv.URL()
		require.True(t, strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasPrefix(url, "http://[::1]:"), url)
		require.NotEmpty(t, srv.APIKey())
		require.True(t, strings.HasPrefix(srv.WorkspaceID(), "wrkspc_"), srv.WorkspaceID())

		_, err := client.Models.List(ctx, models.ListParams{})
		require.NoError(t, err)
		reqs := srv.Requests()
		require.Len(t, reqs, 1)
		require.Equal(t, srv.WorkspaceID(), reqs[0].Header.Get("vendor-workspace-id"))
	})
	_, err := http.Get(url + "/v1/models")
	require.Error(t, err, "the server still answers after its test ended")
}

// The client's options come after the server's: they can change any of
// them. The VENDOR_* environment never redirects the client.
func TestClientOptionsAndEnvironment(t *testing.T) {
	t.Setenv("VENDOR_BASE_URL", "https://api.vendor.invalid")
	t.Setenv("VENDOR_API_KEY", "sk-from-the-environment")
	t.Setenv("VENDOR_WORKSPACE_ID", "wrkspc_elsewhere")
	srv, client := platformtest.New(t)
	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)

	noRetries, err := srv.Client(option.WithMaxRetries(0))
	require.NoError(t, err)
	defer noRetries.Close()
	srv.InjectFault(platformtest.Fault{Path: "/v1/models", Status: http.StatusServiceUnavailable})
	_, err = noRetries.Models.List(ctx, models.ListParams{})
	require.Error(t, err)
	require.Equal(t, 2, count(srv, http.MethodGet, "/v1/models"), "one call before, one attempt now")
}

func TestCloseIsIdempotent(t *testing.T) {
	srv, err := platformtest.NewServer()
	require.NoError(t, err)
	srv.Close()
	srv.Close()
}

// Close ends the event streams still open instead of waiting for them.
func TestCloseEndsOpenStreams(t *testing.T) {
	srv, err := platformtest.NewServer()
	require.NoError(t, err)
	client, err := srv.Client(option.WithMaxRetries(1))
	require.NoError(t, err)
	defer client.Close()
	f := &fixture{srv: srv, client: client}
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "test"})
	require.NoError(t, err)
	f.envID = env.ID
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)

	stream, err := client.Sessions.Events.Stream(ctx, sid, sessions.StreamParams{NoReconnect: true})
	require.NoError(t, err)
	defer stream.Close()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for range stream.Events() {
		}
	}()
	// That Close does not wait out its grace period for the stream is
	// refserver's TestStopEndsOpenStreams (with an hour of grace); here,
	// Close returns and the client's stream ends.
	srv.Close()
	select {
	case <-ended:
	case <-time.After(time.Minute): // only turns a stream that never ends into a failure
		t.Fatal("the stream did not end when the server closed")
	}
}

// By default the clock reads the real time, and Advance adds to it.
func TestClockFollowsRealTime(t *testing.T) {
	before := time.Now()
	f := newFixture(t)
	require.False(t, f.srv.Now().Before(before))
	require.False(t, f.srv.Now().After(time.Now()))

	f.srv.Advance(48 * time.Hour)
	a := f.agent(t, agents.CreateParams{})
	require.False(t, a.CreatedAt.Before(before.Add(48*time.Hour).Truncate(time.Microsecond)), "created_at %v", a.CreatedAt)
	require.False(t, a.CreatedAt.After(time.Now().Add(48*time.Hour)))
	later := f.srv.Now()
	time.Sleep(2 * time.Millisecond)
	require.True(t, f.srv.Now().After(later), "the clock stood still")
}

// WithStartTime fixes the clock until Advance moves it.
func TestClockWithStartTime(t *testing.T) {
	f := newFixture(t, platformtest.WithStartTime(start))
	require.Equal(t, start, f.srv.Now())
	a := f.agent(t, agents.CreateParams{})
	require.True(t, a.CreatedAt.Equal(start), "created_at %v", a.CreatedAt)

	f.srv.Advance(90 * time.Minute)
	require.Equal(t, start.Add(90*time.Minute), f.srv.Now())
	f.srv.Advance(0)
	require.Equal(t, start.Add(90*time.Minute), f.srv.Now())
}

func TestAdvanceRefusesToGoBack(t *testing.T) {
	srv, _ := platformtest.New(t)
	require.PanicsWithValue(t, "platformtest: Advance: negative duration -1s", func() { srv.Advance(-time.Second) })
}

// Two servers with the same start time answer the same requests alike.
func TestWithStartTimeIsDeterministic(t *testing.T) {
	run := func() []string {
		f := newFixture(t, platformtest.WithStartTime(start))
		a := f.agent(t, agents.CreateParams{})
		sid := f.session(t, a.ID)
		f.send(t, sid, sessions.UserMessage("hello"))
		out := []string{f.envID, a.ID, sid}
		for _, ev := range f.history(t, sid) {
			out = append(out, string(ev.Type())+" "+ev.(sessions.PersistedEvent).Meta().ID+" "+ev.(sessions.PersistedEvent).Meta().ProcessedAt.String())
		}
		return out
	}
	first, second := run(), run()
	require.Empty(t, cmp.Diff(first, second))
}

// Advance fires every occurrence of a schedule it passes, on either clock,
// and the runs' sessions follow the agent's script.
func TestAdvanceFiresSchedules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     []platformtest.Option
		min, max int
	}{
		{"real time", nil, 3, 4}, // 4 if an hour starts within the test's own run time
		{"start time", []platformtest.Option{platformtest.WithStartTime(start)}, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.opts...)
			a := f.agent(t, agents.CreateParams{})
			require.NoError(t, f.srv.ScriptAgent(a.ID, []platformtest.Step{platformtest.Say("Report written.")}))
			dep, err := f.client.Deployments.Create(ctx, deployments.CreateParams{
				Name: "Hourly", Agent: agents.AgentID(a.ID), EnvironmentID: f.envID,
				InitialEvents: []sessions.EventParam{sessions.UserMessage("Report.")},
				Schedule:      &deployments.ScheduleParam{Expression: "0 * * * *", Timezone: "UTC"},
			})
			require.NoError(t, err)
			f.srv.Advance(3 * time.Hour)

			var runs []*deployments.Run
			for r, err := range f.client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
				require.NoError(t, err)
				runs = append(runs, r)
			}
			require.GreaterOrEqual(t, len(runs), tc.min)
			require.LessOrEqual(t, len(runs), tc.max)
			for _, r := range runs {
				require.Nil(t, r.Error)
				msgs := find[*sessions.AgentMessageEvent](f.history(t, r.SessionID))
				require.Len(t, msgs, 1)
				require.Equal(t, "Report written.", sessions.Text(msgs[0].Content))
			}
		})
	}
}

// Requests records every attempt, with credentials redacted.
func TestRequestsRedactCredentials(t *testing.T) {
	f := newFixture(t, platformtest.WithStartTime(start))
	reqs := f.srv.Requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	require.Equal(t, http.MethodPost, r.Method)
	require.Equal(t, "/v1/environments", r.Path)
	require.Equal(t, "Bearer [redacted]", r.Header.Get("Authorization"))
	require.NotContains(t, string(r.Body)+strings.Join(r.Header.Values("Authorization"), ""), f.srv.APIKey())
	require.JSONEq(t, `{"name":"test"}`, string(r.Body))
	require.Equal(t, start, r.Time)
}

// The server's spans join the client's traces.
func TestWithSpanExporter(t *testing.T) {
	serverSpans := tracetest.NewInMemoryExporter()
	clientSpans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(clientSpans))
	defer func() { require.NoError(t, tp.Shutdown(ctx)) }()

	srv, _ := platformtest.New(t, platformtest.WithSpanExporter(serverSpans))
	client, err := srv.Client(option.WithTracerProvider(tp), option.WithPropagator(propagation.TraceContext{}))
	require.NoError(t, err)
	defer client.Close()
	_, err = client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)

	server := serverSpans.GetSpans()
	require.Len(t, server, 1)
	require.True(t, strings.HasPrefix(server[0].Name, "vendor."), server[0].Name)
	require.Equal(t, trace.SpanKindServer, server[0].SpanKind)
	clientSide := clientSpans.GetSpans()
	require.NotEmpty(t, clientSide)
	require.Equal(t, clientSide[0].SpanContext.TraceID(), server[0].SpanContext.TraceID())
}
