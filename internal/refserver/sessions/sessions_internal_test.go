package sessions

// White-box tests of the session state's zero value, a session event's
// echo, repository mount paths and the engine's span hooks without
// tracing.

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

func TestZeroValueSessionState(t *testing.T) {
	srv := &Service{}
	if _, err := srv.sessionLocked("w", "sesn_x"); err == nil {
		t.Fatal("session found in a zero state")
	}
}

func TestSessionEventEcho(t *testing.T) {
	x := &session{}
	e := &engine{s: New(Deps{Deps: &kit.Deps{IDs: kit.SequentialIDs()}}), x: x, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e.feed = newFeed(&x.events)
	ev := e.echo(eventParam{typ: "user.message", payload: json.RawMessage(`{"type":"user.message","content":[]}`)})
	want := `{"id":"sevt_010000000000000000000001","processed_at":"2026-01-02T03:04:05.000000Z","type":"user.message","content":[]}`
	if got := string(ev.view()); got != want || string(x.events[0].view()) != want {
		t.Fatalf("view %s, want %s", got, want)
	}
}

func TestRepositoryMountPath(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/o/repo.git":   "/workspace/repo",
		"https://github.com/o/repo/":      "/workspace/repo",
		"https://github.com/o/repo":       "/workspace/repo",
		"https://git.example.com":         "/workspace/git.example.com",
		"https://git.example.com:8443/":   "/workspace/git.example.com",
		"https://example.com/a/b/c.d.git": "/workspace/c.d",
	} {
		if got := repositoryMountPath(url); got != want {
			t.Errorf("%s: %s, want %s", url, got, want)
		}
	}
}

// Without tracing, the engine's span hooks do nothing.
func TestTracingOffHooks(t *testing.T) {
	var mr *modelSpan
	mr.fail("x")
	mr.cancel()
	mr.end(tokenCount{})
	var ts *turnSpan
	ts.sessionError("x", "exhausted")
}
