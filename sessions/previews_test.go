package sessions_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestPreviewsFolded: previews of a model request arrive in the order of
// docs/session-events-wire.md 5, fold into the text so far, and give way to
// their final events.
func TestPreviewsFolded(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.previews(t, s.ID)
	f.script(t, s.ID, []refserver.Step{refserver.Think("Let me check."), refserver.SayChunks("Order ", "#1234 ", "shipped.")})
	f.send(t, s.ID, sessions.UserMessage("Where is my order?"))

	var previews sessions.Previews
	var texts []string
	var open [][]sessions.PreviewedEvent
	got := tl.until(func(ev sessions.Event) bool {
		previews.Add(ev)
		if d, ok := ev.(*sessions.EventDelta); ok {
			texts = append(texts, previews.Text(d.EventID))
		}
		open = append(open, previews.Open())
		return ev.Type() == sessions.EventSessionStatusIdle
	})
	require.Equal(t, []string{
		"user.message", "session.status_running", "span.model_request_start",
		"event_start", "event_start", "event_delta", "event_delta", "event_delta",
		"agent.thinking", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle",
	}, typesOf(got))
	thinking := only[*sessions.AgentThinkingEvent](t, got)
	message := only[*sessions.AgentMessageEvent](t, got)
	require.Equal(t, []string{"Order ", "Order #1234 ", "Order #1234 shipped."}, texts)
	require.Equal(t, "Order #1234 shipped.", sessions.Text(message.Content), "the final event carries the whole text")
	both := []sessions.PreviewedEvent{{Type: sessions.EventAgentThinking, ID: thinking.ID}, {Type: sessions.EventAgentMessage, ID: message.ID}}
	require.Equal(t, both[:1], open[3], "thinking began")
	require.Equal(t, both, open[7], "both previews open")
	require.Equal(t, both[1:], open[8], "agent.thinking concludes its preview")
	require.Empty(t, open[9], "agent.message replaces its preview")
	require.Empty(t, previews.Text(message.ID))

	// Only the kinds asked for are previewed.
	thinkingOnly := f.tail(t, s.ID, sessions.StreamParams{EventDeltas: []sessions.EventType{sessions.EventAgentThinking}})
	f.script(t, s.ID, []refserver.Step{refserver.Think("Hmm."), refserver.SayChunks("a", "b")})
	f.send(t, s.ID, sessions.UserMessage("Again."))
	got = thinkingOnly.untilIdle()
	require.Len(t, all[*sessions.EventStart](got), 1)
	require.Equal(t, sessions.EventAgentThinking, all[*sessions.EventStart](got)[0].Event.Type)
	require.Empty(t, all[*sessions.EventDelta](got), "thinking previews are start-only")
}

// TestPreviewsClosedByRequestEnd: a request cut short by an interrupt
// emits no final event; its span.model_request_end closes its previews.
func TestPreviewsClosedByRequestEnd(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.previews(t, s.ID)
	f.script(t, s.ID, []refserver.Step{refserver.SayChunks("Half ", "done"), refserver.Hold()})
	f.send(t, s.ID, sessions.UserMessage("Go."))

	var previews sessions.Previews
	got := tl.until(func(ev sessions.Event) bool {
		previews.Add(ev)
		return previews.Text(eventIDOfDelta(ev)) == "Half done"
	})
	id := eventIDOfDelta(got[len(got)-1])
	require.Equal(t, []sessions.PreviewedEvent{{Type: sessions.EventAgentMessage, ID: id}}, previews.Open())
	require.Equal(t, "Half done", previews.BlockText(id, 0))

	f.send(t, s.ID, sessions.Interrupt())
	got = tl.until(func(ev sessions.Event) bool {
		previews.Add(ev)
		return ev.Type() == sessions.EventSpanModelRequestEnd
	})
	require.Empty(t, all[*sessions.AgentMessageEvent](got))
	require.Empty(t, previews.Open())
	require.Empty(t, previews.Text(id))
}

func eventIDOfDelta(ev sessions.Event) string {
	if d, ok := ev.(*sessions.EventDelta); ok {
		return d.EventID
	}
	return ""
}

// TestPreviewsFolding covers the folding rules on their own.
func TestPreviewsFolding(t *testing.T) {
	var p sessions.Previews
	delta := func(id string, index int, text string) *sessions.EventDelta {
		return &sessions.EventDelta{EventID: id, Delta: sessions.ContentDelta{Type: "content_delta", Index: index, Content: sessions.TextBlock{Text: text}}}
	}
	p.Add(&sessions.SpanModelRequestStartEvent{EventMeta: sessions.EventMeta{ID: "sevt_s"}})
	p.Add(&sessions.EventStart{Event: sessions.PreviewedEvent{Type: sessions.EventAgentMessage, ID: "sevt_a"}})
	p.Add(delta("sevt_a", 1, "world"))
	p.Add(delta("sevt_a", 0, "Hello, "))
	p.Add(delta("sevt_a", 1, "!"))
	p.Add(delta("sevt_b", 0, "no start seen")) // tolerated: a message preview
	p.Add(&sessions.EventDelta{EventID: "sevt_a", Delta: sessions.ContentDelta{Index: 2, Content: sessions.RedactedBlock{}}})
	require.Equal(t, "Hello, world!", p.Text("sevt_a"), "entries in index order")
	require.Equal(t, "world!", p.BlockText("sevt_a", 1))
	require.Empty(t, p.BlockText("sevt_a", 2))
	require.Equal(t, "no start seen", p.Text("sevt_b"))
	require.Equal(t, []sessions.PreviewedEvent{{Type: sessions.EventAgentMessage, ID: "sevt_a"}, {Type: sessions.EventAgentMessage, ID: "sevt_b"}}, p.Open())

	p.Add(&sessions.AgentMessageEvent{EventMeta: sessions.EventMeta{ID: "sevt_a"}})
	require.Empty(t, p.Text("sevt_a"))
	require.Equal(t, "no start seen", p.Text("sevt_b"), "other previews stay")
	p.Add(&sessions.SpanModelRequestEndEvent{EventMeta: sessions.EventMeta{ID: "sevt_e"}})
	require.Empty(t, p.Open())
	require.Empty(t, p.Text("sevt_unknown"))
}
