package sessions

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Rendering of persisted events and previews (docs/session-events-wire.md
// 4, 5). An event is
// rendered once, when recorded, into the exact bytes List, Stream and the
// Send response all use: {"id", "processed_at", "type", then its own keys}.
// The hot paths (agent.message, previews) append bytes directly instead of
// running an encoder per event.

func (e *engine) newID() string { return e.s.cfg.ids("sevt_") }

// newEvent renders an event from tail, its members after "type" (each
// preceded by a comma; nil for none).
func (e *engine) newEvent(id, typ string, tail []byte) *sessionEvent {
	b := make([]byte, 0, len(id)+len(typ)+len(tail)+64)
	b = appendEventHead(b, id, e.now, typ)
	b = append(b, tail...)
	b = append(b, '}')
	return &sessionEvent{id: id, typ: typ, processedAt: e.now, raw: b}
}

func appendEventHead(b []byte, id string, at time.Time, typ string) []byte {
	b = append(b, `{"id":"`...)
	b = append(b, id...)
	b = append(b, `","processed_at":"`...)
	b = at.UTC().AppendFormat(b, kit.TimestampLayout)
	b = append(b, `","type":`...)
	return appendJSONString(b, typ)
}

// emit records a session-wide event (status, usage, errors, thread
// lifecycle, outcome spans) on the session stream. fields is nil or a value
// that encodes as a JSON object whose members follow "type".
func (e *engine) emit(typ string, fields any) *sessionEvent {
	ev := e.newEvent(e.newID(), typ, fieldsTail(fields))
	e.feed.append(ev)
	return ev
}

// emitOn records an event of th's own activity: the session stream for the
// primary, the thread's log for a child (docs/session-events-wire.md 7.3).
func (e *engine) emitOn(th *thread, typ string, fields any) *sessionEvent {
	ev := e.newEvent(e.newID(), typ, fieldsTail(fields))
	e.record(th, ev)
	return ev
}

func (e *engine) record(th *thread, ev *sessionEvent) {
	if th.child {
		th.feed.append(ev)
		return
	}
	e.feed.append(ev)
}

func fieldsTail(fields any) []byte {
	if fields == nil {
		return nil
	}
	return tailOf(mustJSON(fields))
}

// tailOf turns a compact JSON object into the members that follow "type".
func tailOf(obj []byte) []byte {
	inner := bytes.TrimSpace(obj)
	if len(inner) < 2 {
		return nil
	}
	inner = inner[1 : len(inner)-1]
	if len(inner) == 0 {
		return nil
	}
	out := make([]byte, 0, len(inner)+1)
	out = append(out, ',')
	return append(out, inner...)
}

// mustJSON encodes the server's own event types, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("refserver: encoding an event: " + err.Error())
	}
	return b
}

// appendJSONString appends s as a JSON string. Plain printable ASCII (the
// common case) is copied as is; anything else goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// contentTail is `,"content":[{"type":"text","text":<text>}]`.
func contentTail(text string) []byte {
	b := make([]byte, 0, len(text)+40)
	b = append(b, `,"content":[{"type":"text","text":`...)
	b = appendJSONString(b, text)
	return append(b, "}]"...)
}

func previewStart(typ, id string) []byte {
	b := make([]byte, 0, 80)
	b = append(b, `{"type":"event_start","event":{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","id":"`...)
	b = append(b, id...)
	return append(b, `"}}`...)
}

func previewDelta(id, text string) []byte {
	b := make([]byte, 0, len(text)+140)
	b = append(b, `{"type":"event_delta","event_id":"`...)
	b = append(b, id...)
	b = append(b, `","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":`...)
	b = appendJSONString(b, text)
	return append(b, "}}}"...)
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func textContent(s string) []textBlock { return []textBlock{{Type: "text", Text: s}} }

// stopReason is a stop_reason with what its stop_details need.
type stopReason struct {
	typ         string // "" is end_turn
	eventIDs    []string
	explanation *string // refusal
}

func (r stopReason) orEndTurn() stopReason {
	if r.typ == "" {
		r.typ = "end_turn"
	}
	return r
}

// key identifies an idle state, to tell whether it changed.
func (r stopReason) key() string {
	r = r.orEndTurn()
	k := r.typ + "|" + strings.Join(r.eventIDs, ",")
	if r.explanation != nil {
		k += "|" + *r.explanation
	}
	return k
}

type requiresActionJSON struct {
	Type     string   `json:"type"`
	EventIDs []string `json:"event_ids"`
}

type refusalDetailsJSON struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation *string `json:"explanation"`
}

func (r stopReason) view() any {
	r = r.orEndTurn()
	if r.typ == "requires_action" {
		return requiresActionJSON{Type: r.typ, EventIDs: r.eventIDs}
	}
	return typeOnly{Type: r.typ}
}

// details is stop_details: null except after a refusal.
func (r stopReason) details() any {
	if r.typ != "refusal" {
		return nil
	}
	return refusalDetailsJSON{Type: "refusal", Explanation: r.explanation}
}

type sessionIdleJSON struct {
	StopReason  any `json:"stop_reason"`
	StopDetails any `json:"stop_details"`
}
