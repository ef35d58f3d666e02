package conformance_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/sessions"
)

// turn is one conversation turn as a test saw it.
type turn struct {
	sent     []sessions.Event // the events Send recorded
	streamed []sessions.Event // everything the stream yielded, in order, up to the end of the turn
	idle     *sessions.SessionStatusIdleEvent
}

// runTurn opens the session's stream, sends events, and reads the stream
// until the session goes idle for good (any stop reason but
// requires_action, which a tool runner or the test answers) or ends.
func runTurn(ctx context.Context, t *testing.T, tg *Target, sessionID string, sp sessions.StreamParams, events ...sessions.EventParam) *turn {
	t.Helper()
	stream, err := tg.Client.Sessions.Events.Stream(ctx, sessionID, sp)
	if err != nil {
		t.Fatalf("open the event stream: %v", err)
	}
	defer stream.Close()
	sent, err := tg.Client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{Events: events})
	if err != nil {
		t.Fatalf("send events: %v", err)
	}
	if len(sent) != len(events) {
		t.Fatalf("sent %d events, %d recorded", len(events), len(sent))
	}
	tr := &turn{sent: sent}
	for ev, err := range stream.Events() {
		if err != nil {
			t.Fatalf("event stream after %d events: %v", len(tr.streamed), err)
		}
		tr.streamed = append(tr.streamed, ev)
		switch ev := ev.(type) {
		case *sessions.SessionStatusIdleEvent:
			if _, waiting := ev.StopReason.(sessions.StopRequiresAction); !waiting {
				tr.idle = ev
				return tr
			}
		case *sessions.SessionStatusTerminatedEvent:
			return tr
		}
	}
	t.Fatalf("the stream ended after %d events without the session going idle", len(tr.streamed))
	return nil
}

// persisted returns the ids and types of the persisted events of evs.
func persisted(evs []sessions.Event) (ids, types []string) {
	for _, ev := range evs {
		if p, ok := ev.(sessions.PersistedEvent); ok {
			ids = append(ids, p.Meta().ID)
			types = append(types, string(p.Type()))
		}
	}
	return ids, types
}

// checkNoLoss compares what the stream delivered with the session's
// history: from the first event sent to the idle event that ended the turn,
// every recorded event was streamed once, in order.
func checkNoLoss(ctx context.Context, t *testing.T, tg *Target, sessionID string, tr *turn) {
	t.Helper()
	var history []sessions.Event
	for ev, err := range tg.Client.Sessions.Events.All(ctx, sessionID, sessions.EventListParams{}) {
		if err != nil {
			t.Fatalf("list events: %v", err)
		}
		history = append(history, ev)
	}
	hIDs, hTypes := persisted(history)
	first := tr.sent[0].(sessions.PersistedEvent).Meta().ID
	last := tr.idle.ID
	from, to := index(hIDs, first), index(hIDs, last)
	if from < 0 || to < from {
		t.Fatalf("the history (%v) lacks the turn from %s to %s", hTypes, first, last)
	}
	sIDs, sTypes := persisted(tr.streamed)
	// Anything recorded between opening the stream and sending (nothing,
	// normally) is not part of the turn.
	start := index(sIDs, first)
	if start < 0 {
		t.Fatalf("the stream did not deliver the sent event %s: %v", first, sTypes)
	}
	sIDs, sTypes = sIDs[start:], sTypes[start:]
	if d := cmp.Diff(hTypes[from:to+1], sTypes); d != "" {
		t.Errorf("streamed event types differ from the history (-history +stream):\n%s", d)
	}
	if d := cmp.Diff(hIDs[from:to+1], sIDs); d != "" {
		t.Errorf("streamed events differ from the history (-history +stream):\n%s", d)
	}
}

func index(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// agentText returns the text of the turn's agent messages, joined.
func agentText(evs []sessions.Event) string {
	var s string
	for _, ev := range evs {
		if m, ok := ev.(*sessions.AgentMessageEvent); ok {
			s += sessions.Text(m.Content)
		}
	}
	return s
}

// firstOf returns the first event of type T in evs.
func firstOf[T sessions.Event](evs []sessions.Event) (T, bool) {
	for _, ev := range evs {
		if x, ok := ev.(T); ok {
			return x, true
		}
	}
	var zero T
	return zero, false
}
