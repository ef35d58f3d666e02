package platformtest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Injected statuses meet the SDK's retry policy as a real outage would.
func TestFaultStatuses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fault    platformtest.Fault
		wantErr  int // the final status; 0: the call succeeds
		attempts int
	}{
		{
			name:     "retried until it passes",
			fault:    platformtest.Fault{Status: 529, Header: http.Header{"Retry-After": {"60"}}, Times: 2},
			attempts: 3,
		},
		{
			name:     "x-should-retry false",
			fault:    platformtest.Fault{Status: 503, Header: http.Header{"X-Should-Retry": {"false"}}},
			wantErr:  503,
			attempts: 1,
		},
		{
			name:     "outlasts the retries",
			fault:    platformtest.Fault{Status: 500, Times: 10},
			wantErr:  500,
			attempts: 3, // WithMaxRetries(2) below
		},
		{
			name:     "a proxy's HTML page",
			fault:    platformtest.Fault{Status: 502, Body: "<html>Bad gateway</html>", Times: 10},
			wantErr:  502,
			attempts: 3,
		},
		{
			name:     "another method",
			fault:    platformtest.Fault{Method: http.MethodPost, Status: 500},
			attempts: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := platformtest.New(t)
			client, err := srv.Client(option.WithMaxRetries(2))
			require.NoError(t, err)
			defer client.Close()
			f := tc.fault
			if f.Path == "" {
				f.Path = "/v1/models"
			}
			srv.InjectFault(f)

			_, err = client.Models.List(ctx, models.ListParams{})
			require.Equal(t, tc.attempts, count(srv, http.MethodGet, "/v1/models"))
			if tc.wantErr == 0 {
				require.NoError(t, err)
				return
			}
			apiErr, ok := errors.AsType[*apierror.Error](err)
			require.True(t, ok, "%v", err)
			require.Equal(t, tc.wantErr, apiErr.StatusCode)
			if f.Body != "" {
				require.Equal(t, f.Body, string(apiErr.Body))
			}
		})
	}
}

// A dropped connection is retried; a response lost after the server acted
// is retried under the same Idempotency-Key, so the agent is created once.
func TestFaultDrops(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault platformtest.Fault
	}{
		{"before handling", platformtest.Fault{Method: http.MethodPost, Path: "/v1/agents", Drop: true}},
		{"after handling", platformtest.Fault{Method: http.MethodPost, Path: "/v1/agents", DropAfterHandling: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.InjectFault(tc.fault)
			a := f.agent(t, agents.CreateParams{})
			require.GreaterOrEqual(t, count(f.srv, http.MethodPost, "/v1/agents"), 2)

			var ids []string
			for got, err := range f.client.Agents.All(ctx, agents.ListParams{}) {
				require.NoError(t, err)
				ids = append(ids, got.ID)
			}
			require.Equal(t, []string{a.ID}, ids)
		})
	}
}

// A delayed response meets the caller's deadline. The delay is an hour, so
// the deadline comes first however slow the machine is.
func TestFaultDelay(t *testing.T) {
	srv, client := platformtest.New(t)
	srv.InjectFault(platformtest.Fault{Path: "/v1/models", Delay: time.Hour})
	callCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err := client.Models.List(callCtx, models.ListParams{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// A stream cut mid-turn reconnects and delivers every event once.
func TestFaultStreamCut(t *testing.T) {
	f := newFixture(t)
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)
	require.NoError(t, f.srv.ScriptSession(sid, []platformtest.Step{
		platformtest.Say("one"), platformtest.Say("two"), platformtest.Say("three"),
	}))
	f.srv.InjectFault(platformtest.Fault{Path: "/v1/sessions/" + sid + "/events/stream", StreamCutAfter: 3})

	streamCtx, cancel := context.WithTimeout(ctx, time.Minute) // a safety net, not an assertion
	defer cancel()
	stream, err := f.client.Sessions.Events.Stream(streamCtx, sid, sessions.StreamParams{})
	require.NoError(t, err)
	defer stream.Close()
	f.send(t, sid, sessions.UserMessage("Count."))

	var said []string
	for ev, err := range stream.Events() {
		require.NoError(t, err)
		if m, ok := ev.(*sessions.AgentMessageEvent); ok {
			said = append(said, sessions.Text(m.Content))
		}
		if idle, ok := ev.(*sessions.SessionStatusIdleEvent); ok {
			require.IsType(t, sessions.StopEndTurn{}, idle.StopReason)
			break
		}
	}
	require.Equal(t, []string{"one", "two", "three"}, said)
	require.GreaterOrEqual(t, count(f.srv, http.MethodGet, "/v1/sessions/"+sid+"/events/stream"), 2, "the stream was not cut")
}

// A StreamOnly cut on /v1/messages passes the non-streamed calls by and
// cuts the next stream, which ends in an error wrapping
// io.ErrUnexpectedEOF, never in a short message.
func TestFaultStreamOnly(t *testing.T) {
	srv, client := platformtest.New(t)
	srv.InjectFault(platformtest.Fault{Method: http.MethodPost, Path: "/v1/messages", StreamCutAfter: 2, StreamOnly: true})
	p := messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 64, Messages: []messages.MessageParam{messages.UserText("Hello there")}}
	want, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)

	ms, err := client.Messages.Stream(ctx, p)
	require.NoError(t, err)
	_, err = ms.Message()
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.NoError(t, ms.Close())

	ms, err = client.Messages.Stream(ctx, p) // the fault is used up
	require.NoError(t, err)
	got, err := ms.Message()
	require.NoError(t, err)
	require.NoError(t, ms.Close())
	require.Equal(t, want.Text(), got.Text())
	require.Equal(t, 4, count(srv, http.MethodPost, "/v1/messages"), "a cut stream is not retried by the client")
}

// ClearFaults removes the faults not used up yet.
func TestClearFaults(t *testing.T) {
	srv, client := platformtest.New(t)
	srv.InjectFault(platformtest.Fault{Status: 500, Times: 100})
	srv.ClearFaults()
	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Len(t, srv.Requests(), 1)
}
