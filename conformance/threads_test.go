package conformance_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestSessionThreads reads a new session's threads: its one primary
// thread, listed, read and streamed, whose history is the session's. On
// the reference server, archiving the primary thread is refused.
func TestSessionThreads(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	agent := newAgent(t, tg, agents.CreateParams{System: "You are terse."})
	env := newEnvironment(t, tg, environments.CreateParams{})
	s := newSession(t, tg, sessions.CreateParams{Agent: agent.Reference(), EnvironmentID: env.ID})

	var threads []*sessions.Thread
	for th, err := range c.Sessions.Threads.All(ctx, s.ID, sessions.ThreadListParams{}) {
		if err != nil {
			t.Fatalf("list threads: %v", err)
		}
		threads = append(threads, th)
	}
	if len(threads) != 1 {
		t.Fatalf("a new single-agent session has %d threads, want its primary thread only", len(threads))
	}
	primary := threads[0]
	if primary.Type != "session_thread" || !strings.HasPrefix(primary.ID, "sthr_") || !primary.Primary() ||
		primary.SessionID != s.ID || primary.Archived() {
		t.Fatalf("primary thread: %+v", primary)
	}
	if a, ok := primary.Agent.(*sessions.RosterThreadAgent); !ok || a.ID != agent.ID || a.Version != agent.Version {
		t.Errorf("primary thread agent %#v, want agent %s v%d", primary.Agent, agent.ID, agent.Version)
	}
	got, err := c.Sessions.Threads.Get(ctx, s.ID, primary.ID)
	if err != nil || got.ID != primary.ID || !got.CreatedAt.Equal(primary.CreatedAt) {
		t.Fatalf("get thread: %v, %+v", err, got)
	}
	if _, err := c.Sessions.Threads.Events(ctx, s.ID, primary.ID, sessions.EventListParams{}); err != nil {
		t.Fatalf("list thread events: %v", err)
	}
	st, err := c.Sessions.Threads.Stream(ctx, s.ID, primary.ID, sessions.StreamParams{})
	if err != nil {
		t.Fatalf("stream thread: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Errorf("close thread stream: %v", err)
	}
	if _, err := c.Sessions.Threads.Get(ctx, s.ID, "sthr_011CZkZDLs7fYzm1hXNPeRjv"); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get an unknown thread: %v, want a 404", err)
	}
	if tg.Reference() {
		_, err := c.Sessions.Threads.Archive(ctx, s.ID, primary.ID)
		var apiErr *apierror.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusConflict {
			t.Errorf("archive the primary thread: %v, want a 409", err)
		}
	}
}
