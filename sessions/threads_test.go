package sessions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// leadSession starts a session of a coordinator "lead" whose roster holds
// "code-reviewer" (with a custom tool "check") and an advisor.
func (f *fixture) leadSession(t *testing.T) (*sessions.Session, *agents.Agent) {
	t.Helper()
	reviewer := f.newAgent(t, agents.CreateParams{Name: "code-reviewer", Model: f.agent.Model,
		Tools: []agents.Tool{agents.CustomTool{Name: "check", Description: "c", InputSchema: agents.InputSchema{}}}})
	lead := f.newAgent(t, agents.CreateParams{Name: "lead", Model: f.agent.Model,
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID), agents.AdvisorEntry{Model: models.VendorOpus55}}}})
	return f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(lead.ID), EnvironmentID: f.envID}), reviewer
}

// primaryThread finds a session's primary thread through the endpoints.
func (f *fixture) primaryThread(t *testing.T, sessionID string) string {
	t.Helper()
	for th, err := range f.client.Sessions.Threads.All(ctx, sessionID, sessions.ThreadListParams{}) {
		require.NoError(t, err)
		if th.Primary() {
			return th.ID
		}
	}
	t.Fatal("no primary thread")
	return ""
}

func threadIDs(ths []sessions.Thread) []string {
	out := make([]string, len(ths))
	for i, th := range ths {
		out[i] = th.ID
	}
	return out
}

// TestThreads: the thread endpoints agree with the session stream (the
// ids of session.thread_created, the roster's names), with the events
// each thread recorded, and with the interrupts the session accepts.
func TestThreads(t *testing.T) {
	f := newFixture(t)
	s, reviewer := f.leadSession(t)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.Say("Two issues.")), refserver.Say("Reviewed.")})
	f.send(t, s.ID, sessions.UserMessage("Review the diff."))
	streamed := tl.untilIdle()
	created := only[*sessions.SessionThreadCreatedEvent](t, streamed)

	page, err := f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.Empty(t, page.NextPage)
	primary, child := page.Data[0], page.Data[1] // in creation order
	require.Equal(t, created.ThreadID, child.ID)
	require.True(t, primary.Primary())
	require.Equal(t, primary.ID, child.ParentThreadID)
	for _, th := range page.Data {
		require.Equal(t, "session_thread", th.Type)
		require.Equal(t, s.ID, th.SessionID)
		require.Equal(t, sessions.StatusIdle, th.Status)
		require.False(t, th.Archived())
		require.Nil(t, th.Stats)
		require.Nil(t, th.Usage)
	}
	// The agents: the roster's definitions, as the session holds them.
	require.Equal(t, "lead", primary.AgentName())
	lead := primary.Agent.(*sessions.RosterThreadAgent)
	require.Equal(t, s.Agent.ID, lead.ID)
	require.Equal(t, created.AgentName, child.AgentName())
	agent := child.Agent.(*sessions.RosterThreadAgent)
	require.Equal(t, reviewer.ID, agent.ID)
	require.Equal(t, reviewer.Version, agent.Version)
	require.Len(t, agent.Tools, 1)

	got, err := f.client.Sessions.Threads.Get(ctx, s.ID, child.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(&child, got))

	// A child's events are its own; the primary's are the session's.
	var own []sessions.Event
	for ev, err := range f.client.Sessions.Threads.AllEvents(ctx, s.ID, child.ID, sessions.EventListParams{Limit: 2}) {
		require.NoError(t, err)
		own = append(own, ev)
	}
	require.Equal(t, []string{"span.model_request_start", "agent.message", "span.model_request_end"}, typesOf(own))
	require.Equal(t, "Two issues.", sessions.Text(only[*sessions.AgentMessageEvent](t, own).Content))
	primaryPage, err := f.client.Sessions.Threads.Events(ctx, s.ID, primary.ID, sessions.EventListParams{})
	require.NoError(t, err)
	require.Equal(t, eventIDs(f.history(t, s.ID)), eventIDs(primaryPage.Data))

	// Interrupts name the threads the endpoints list, and no other.
	for _, id := range threadIDs(page.Data) {
		echo := f.send(t, s.ID, sessions.InterruptThread(id))
		require.Equal(t, id, echo[0].(*sessions.InterruptEvent).ThreadID)
	}
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.InterruptThread("sthr_011CZkZDLs7fYzm1hXNPeRjv")}})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "session_thread_id")

	running, err := f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{Statuses: []sessions.Status{sessions.StatusRunning}})
	require.NoError(t, err)
	require.Empty(t, running.Data)
	one, err := f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{Limit: 1})
	require.NoError(t, err)
	require.Equal(t, []string{primary.ID}, threadIDs(one.Data))
	var walked []string
	for th, err := range f.client.Sessions.Threads.All(ctx, s.ID, sessions.ThreadListParams{Limit: 1}) {
		require.NoError(t, err)
		walked = append(walked, th.ID)
	}
	require.Equal(t, threadIDs(page.Data), walked)
}

// TestThreadArchive: archiving a child ends its stream after
// session.thread_status_terminated, also posted on the session stream;
// the primary thread and a thread in a turn cannot be archived.
func TestThreadArchive(t *testing.T) {
	f := newFixture(t)
	s, _ := f.leadSession(t)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.UseCustomTool("check", nil), refserver.Say("ok"))})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	call := only[*sessions.AgentCustomToolUseEvent](t, tl.untilIdle())
	child := call.ThreadID
	primary := f.primaryThread(t, s.ID)

	_, err := f.client.Sessions.Threads.Archive(ctx, s.ID, child)
	requireConflict(t, err, "interrupt it first")
	_, err = f.client.Sessions.Threads.Archive(ctx, s.ID, primary)
	requireConflict(t, err, "primary thread")

	ts, err := f.client.Sessions.Threads.Stream(ctx, s.ID, child, sessions.StreamParams{})
	require.NoError(t, err)
	defer ts.Close()
	f.send(t, s.ID, sessions.CustomToolResult(call.ID, "fine"))
	tl.untilIdle()

	archived, err := f.client.Sessions.Threads.Archive(ctx, s.ID, child)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	require.Equal(t, sessions.StatusTerminated, archived.Status)
	again, err := f.client.Sessions.Threads.Archive(ctx, s.ID, child)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt)

	terminated := only[*sessions.SessionThreadStatusTerminatedEvent](t, tl.until(isType(sessions.EventSessionThreadStatusTerminated)))
	require.Equal(t, child, terminated.ThreadID)
	var got []sessions.Event
	for ev, err := range ts.Events() {
		require.NoError(t, err)
		got = append(got, ev)
	}
	require.Equal(t, "session.thread_status_terminated", typesOf(got)[len(got)-1], "the thread's stream ends after it")
	require.Contains(t, typesOf(got), "agent.message")

	left, err := f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{Statuses: []sessions.Status{sessions.StatusIdle}})
	require.NoError(t, err)
	require.Equal(t, []string{primary}, threadIDs(left.Data))
}

func requireConflict(t *testing.T, err error, msg string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusConflict, apiErr.StatusCode)
	require.ErrorContains(t, err, msg)
}

// TestThreadStreamSurvivesCuts: a thread's stream is the session stream's
// reader: cut every few events, it delivers the thread's history after it
// opened once each, in order.
func TestThreadStreamSurvivesCuts(t *testing.T) {
	f := newFixture(t)
	s, _ := f.leadSession(t)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.UseCustomTool("check", nil), refserver.Firehose(60), refserver.Say("Done."))})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	call := only[*sessions.AgentCustomToolUseEvent](t, tl.untilIdle())
	child := call.ThreadID

	path := "/v1/sessions/" + s.ID + "/threads/" + child + "/stream"
	f.env.Server.InjectFault(refserver.Fault{Path: path, StreamCutAfter: 7, Times: 1000})
	before, err := f.client.Sessions.Threads.Events(ctx, s.ID, child, sessions.EventListParams{})
	require.NoError(t, err)
	ts, err := f.client.Sessions.Threads.Stream(ctx, s.ID, child, sessions.StreamParams{})
	require.NoError(t, err)
	defer ts.Close()
	f.send(t, s.ID, sessions.CustomToolResult(call.ID, "fine"))
	tl.untilIdle()

	var got []sessions.Event
	for ev, err := range ts.Events() {
		require.NoError(t, err)
		got = append(got, ev)
		if m, ok := ev.(*sessions.AgentMessageEvent); ok && sessions.Text(m.Content) == "Done." {
			break
		}
	}
	var want []sessions.Event
	for ev, err := range f.client.Sessions.Threads.AllEvents(ctx, s.ID, child, sessions.EventListParams{}) {
		require.NoError(t, err)
		want = append(want, ev)
	}
	want = want[len(before.Data):]
	want = want[:len(got)]
	require.Greater(t, len(got), 60)
	require.Equal(t, eventIDs(want), eventIDs(got), "every event once, in order")
	// The child ran while the send was answered: the first connection is
	// cut after 7 events, and the rest comes from the history read when
	// the stream reconnects.
	require.GreaterOrEqual(t, f.env.Count("GET", path), 2, "the stream was cut and reopened")
}

// TestThreadNotFound: a thread of another session, or none, is a 404.
func TestThreadNotFound(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	other := f.newSession(t, f.params())
	primary := f.primaryThread(t, s.ID)
	_, err := f.client.Sessions.Threads.Get(ctx, s.ID, primary)
	require.NoError(t, err)
	_, err = f.client.Sessions.Threads.Get(ctx, other.ID, primary)
	require.ErrorIs(t, err, apierror.ErrNotFound)
	_, err = f.client.Sessions.Threads.Stream(ctx, other.ID, primary, sessions.StreamParams{})
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

// TestBadInputThreads: the thread endpoints' rules, local and on the
// server.
func TestBadInputThreads(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	primary := f.primaryThread(t, s.ID)
	list := func(p sessions.ThreadListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Threads.List(ctx, s.ID, p)
			return err
		}
	}
	all := func(p sessions.ThreadListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Sessions.Threads.All(ctx, s.ID, p))
		}
	}
	get := func(sessionID, threadID string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Threads.Get(ctx, sessionID, threadID)
			return err
		}
	}
	archive := func(threadID string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Threads.Archive(ctx, s.ID, threadID)
			return err
		}
	}
	events := func(threadID string, p sessions.EventListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Threads.Events(ctx, s.ID, threadID, p)
			return err
		}
	}
	stream := func(threadID string, p sessions.StreamParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			st, err := c.Sessions.Threads.Stream(ctx, s.ID, threadID, p)
			if err == nil {
				st.Close()
			}
			return err
		}
	}
	tooMany := make([]sessions.EventType, 101)
	for i := range tooMany {
		tooMany[i] = sessions.EventAgentMessage
	}
	reftest.RunBadInput(t, f.env, f.client, []badInput{
		{"list limit -1", list(sessions.ThreadListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(sessions.ThreadListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list empty status", list(sessions.ThreadListParams{Statuses: []sessions.Status{""}}), "statuses", "must not be empty", true},
		{"list unknown status", list(sessions.ThreadListParams{Statuses: []sessions.Status{"sleeping"}}), "statuses", "must be one of", false},
		{"list page not a cursor", list(sessions.ThreadListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 1001", all(sessions.ThreadListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"get empty session id", get("", primary), "session_id", "must not be empty", true},
		{"get empty thread id", get(s.ID, ""), "thread_id", "must not be empty", true},
		{"archive empty thread id", archive(""), "thread_id", "must not be empty", true},
		{"events limit 1001", events(primary, sessions.EventListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"events empty type", events(primary, sessions.EventListParams{Types: []sessions.EventType{""}}), "types", "must not be empty", true},
		{"events bad order", events(primary, sessions.EventListParams{Order: "sideways"}), "order", "must be one of", false},
		{"stream 101 event_deltas", stream(primary, sessions.StreamParams{EventDeltas: tooMany}), "event_deltas", "at most 100", true},
		{"stream unknown event_deltas", stream(primary, sessions.StreamParams{EventDeltas: []sessions.EventType{"agent.tool_use"}, NoReconnect: true}), "event_deltas", "must be one of", false},
	})
}

func decodeThread(data []byte) (sessions.Thread, error) {
	var th sessions.Thread
	err := json.Unmarshal(data, &th)
	return th, err
}

// TestThreadsRoundTrip: every thread the server sends (the primary, a
// roster agent's, an advisor's, an archived one) encodes back to the
// server's JSON and decodes again equal.
func TestThreadsRoundTrip(t *testing.T) {
	f := newFixture(t)
	s, _ := f.leadSession(t)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.Say("ok")), refserver.Spawn(sessions.AdvisorAgentName, refserver.Say("hm"))})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	created := all[*sessions.SessionThreadCreatedEvent](tl.untilIdle())
	require.Len(t, created, 2)
	_, err := f.client.Sessions.Threads.Archive(ctx, s.ID, created[0].ThreadID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, f.client.Execute(ctx, http.MethodGet, "/v1/sessions/"+s.ID+"/threads", nil, &page, option.WithBeta("managed-agents-2026-04-01")))
	require.Len(t, page.Data, 3)
	kinds := map[string]bool{}
	for _, raw := range page.Data {
		th, ok := wiretest.RoundTrip(t, raw, decodeThread, true)
		require.True(t, ok, "%s", raw)
		kinds[fmt.Sprintf("%T archived=%v", th.Agent, th.Archived())] = true
	}
	require.Equal(t, map[string]bool{"*sessions.RosterThreadAgent archived=false": true, "*sessions.RosterThreadAgent archived=true": true,
		"*sessions.AdvisorThreadAgent archived=false": true}, kinds)
	advisor, err := f.client.Sessions.Threads.Get(ctx, s.ID, created[1].ThreadID)
	require.NoError(t, err)
	require.Equal(t, sessions.AdvisorAgentName, advisor.AgentName())
	require.Equal(t, models.VendorOpus55, advisor.Agent.(*sessions.AdvisorThreadAgent).Model)
}

// TestThreadSpans: each thread call has its span (docs/tracing.md), naming
// the session and the thread.
func TestThreadSpans(t *testing.T) {
	f := newFixture(t)
	client, rec := f.traced(t)
	s := f.newSession(t, f.params())
	primary := f.primaryThread(t, s.ID)
	call := func(name string, do func() error) {
		t.Helper()
		_ = do() // archiving the primary thread fails: its span is checked all the same
		a := spanAttrs(lastSpan(t, rec, name))
		require.Equal(t, s.ID, a[attr.SessionID].AsString(), name)
		if name != "vendor.sessions.threads.list" {
			require.Equal(t, primary, a[attr.GenAIConversationID].AsString(), name)
		}
	}
	call("vendor.sessions.threads.list", func() error {
		_, err := client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{})
		return err
	})
	call("vendor.sessions.threads.retrieve", func() error { _, err := client.Sessions.Threads.Get(ctx, s.ID, primary); return err })
	call("vendor.sessions.threads.events.list", func() error {
		_, err := client.Sessions.Threads.Events(ctx, s.ID, primary, sessions.EventListParams{})
		return err
	})
	call("vendor.sessions.threads.events.stream", func() error {
		st, err := client.Sessions.Threads.Stream(ctx, s.ID, primary, sessions.StreamParams{NoReconnect: true})
		require.NoError(t, err)
		return st.Close()
	})
	call("vendor.sessions.threads.archive", func() error { _, err := client.Sessions.Threads.Archive(ctx, s.ID, primary); return err })
}

// TestArchivedThreadsDoNotCount: a session runs at most 25 child threads
// at a time; an archived one makes room for another.
func TestArchivedThreadsDoNotCount(t *testing.T) {
	f := newFixture(t)
	s, _ := f.leadSession(t)
	spawns := make([]refserver.Step, 25)
	for i := range spawns {
		spawns[i] = refserver.Spawn("code-reviewer", refserver.Say("ok"))
	}
	f.script(t, s.ID, spawns)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.send(t, s.ID, sessions.UserMessage("Fan out."))
	tl.untilIdle()
	page, err := f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 26)
	_, err = f.client.Sessions.Threads.Archive(ctx, s.ID, page.Data[1].ID)
	require.NoError(t, err)

	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.Say("one more"))})
	f.send(t, s.ID, sessions.UserMessage("Again."))
	tl.untilIdle()
	page, err = f.client.Sessions.Threads.List(ctx, s.ID, sessions.ThreadListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 27, "the archived thread made room for a 26th child")
}
