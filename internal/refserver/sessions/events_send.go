package sessions

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// V1 Send Events (docs/session-events-wire.md 2.1), and how the
// engine records what it accepts: from Send Events, Create Session's
// initial_events and deployment runs alike.

func (s *Service) eventRoutes() []kit.Route {
	const events = "/v1/sessions/{session_id}/events"
	return []kit.Route{
		{Method: http.MethodPost, Path: events, Op: "sessions.events.send", Betas: kit.ManagedAgentsBetas, Handle: s.sendEvents},
		{Method: http.MethodGet, Path: events, Op: "sessions.events.list", Betas: kit.ManagedAgentsBetas, Handle: s.listEvents},
		{Method: http.MethodGet, Path: events + "/stream", Op: "sessions.events.stream", Betas: kit.ManagedAgentsBetas, Handle: s.streamEvents},
	}
}

type sendEventsBody struct {
	Events kit.Optional[json.RawMessage] `json:"events"`
}

type eventsJSON struct {
	Data []json.RawMessage `json:"data"`
}

// sendEvents is V1: shapes, then the session (404, 409 archived or
// terminated), then the state rules; then every event is recorded and the
// engine runs the turns they start or continue, inside this request.
func (s *Service) sendEvents(c *kit.Call) error {
	var body sendEventsBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required(eventsField, body.Events); err != nil {
		return err
	}
	params, err := parseSendEvents(body.Events.Value)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if err := x.writable(); err != nil {
		return err
	}
	if err := x.eng.check(params); err != nil {
		return err
	}
	defer s.traceSessionEvents(c, x, params)()
	echoes := s.acceptEventsLocked(x, params, c.Now())
	x.eng.finish()
	return c.OK(eventsJSON{Data: kit.MapSlice(echoes, (*sessionEvent).view)})
}

// accept records params and applies each one's effect, in order
// (docs/session-events-wire.md 2.1): an interrupt takes effect at once, before the events after it;
// turns start or resume in finish, after every event is recorded, so that
// a system.message is recorded before the turn its user.message starts.
func (e *engine) accept(params []eventParam, now time.Time) []*sessionEvent {
	e.enter(now)
	echoes := make([]*sessionEvent, 0, len(params))
	for _, p := range params {
		f := fieldsOf(p)
		var ev *sessionEvent
		switch p.typ {
		case eventInterrupt:
			if e.budgetPaused() {
				continue // accepted and ignored: not recorded, not in data (2.1)
			}
			ev = e.echo(p, defaultMember("session_thread_id", jsonNull))
			id := ""
			if f.SessionThreadID != nil {
				id = *f.SessionThreadID
			}
			e.interrupt(id)
		case eventUserMessage:
			ev = e.echo(p)
			e.takeMessage(textOf(f.Content))
		case eventSystemMessage:
			ev = e.echo(p)
		case eventDefineOutcome:
			id := e.s.cfg.ids("outc_")
			n := defaultMaxIter
			if f.MaxIterations != nil {
				n = *f.MaxIterations
			}
			ev = e.echo(p, defaultMember("max_iterations", mustJSON(n)), setMember("outcome_id", mustJSON(id)))
			e.defineOutcome(id, f.Description, n)
		case eventConfirmation:
			c := e.callByID[f.ToolUseID]
			ev = e.echo(p, defaultMember("deny_message", jsonNull), setMember("session_thread_id", mustJSON(c.sessionThreadID())))
			e.confirm(c, f.Result == "allow", f.DenyMessage)
		case eventCustomResult, eventToolResult:
			id := f.ToolUseID
			if p.typ == eventCustomResult {
				id = f.CustomToolUseID
			}
			c := e.callByID[id]
			ev = e.echo(p, defaultMember("content", json.RawMessage(`[]`)), defaultMember("is_error", json.RawMessage(`false`)),
				setMember("session_thread_id", mustJSON(c.sessionThreadID())))
			e.answer(c, f.Content)
		}
		echoes = append(echoes, ev)
	}
	e.syncStatus()
	return echoes
}

// takeMessage applies a user.message: a turn in progress takes it in its
// next model request (held while its thread waits on the client,
// docs/session-events-wire.md 3.3); otherwise it starts the primary's next turn, or joins the turn
// about to start.
func (e *engine) takeMessage(text string) {
	switch {
	case e.primary.turn != nil:
	case e.trigger != nil:
		if !e.trigger.message && e.trigger.preset == nil {
			e.trigger.message, e.trigger.text = true, text
		}
	default:
		e.trigger = &turnTrigger{message: true, text: text}
	}
}

var jsonNull = json.RawMessage(`null`)

// member is one key of a JSON object, in order.
type member struct {
	key   string
	value json.RawMessage
}

// memberEdit fills in a server-filled key of an echo
// (docs/session-events-wire.md 3.2).
type memberEdit struct {
	member
	always bool // set even when present; otherwise only when absent or null
}

func defaultMember(key string, value json.RawMessage) memberEdit {
	return memberEdit{member: member{key, value}}
}

func setMember(key string, value json.RawMessage) memberEdit {
	return memberEdit{member: member{key, value}, always: true}
}

// echo records a user event: the sent object with id and processed_at
// first, the sender's keys in the sender's order, then the server-filled
// keys (docs/session-events-wire.md 3.2).
func (e *engine) echo(p eventParam, edits ...memberEdit) *sessionEvent {
	members := objectMembers(p.payload)
	for _, ed := range edits {
		i := indexOfMember(members, ed.key)
		switch {
		case i < 0:
			members = append(members, ed.member)
		case ed.always || bytes.Equal(members[i].value, jsonNull):
			members[i].value = ed.value
		}
	}
	id := e.newID()
	b := make([]byte, 0, len(p.payload)+96)
	b = append(b, `{"id":"`...)
	b = append(b, id...)
	b = append(b, `","processed_at":"`...)
	b = e.now.UTC().AppendFormat(b, kit.TimestampLayout)
	b = append(b, '"')
	for _, m := range members {
		b = append(b, ',')
		b = appendJSONString(b, m.key)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	b = append(b, '}')
	ev := &sessionEvent{id: id, typ: p.typ, processedAt: e.now, raw: b}
	e.feed.append(ev)
	return ev
}

// objectMembers lists the members of a compact JSON object in order.
func objectMembers(raw []byte) []member {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, member{key: key, value: v})
	}
	return out
}

func indexOfMember(ms []member, key string) int {
	for i, m := range ms {
		if m.key == key {
			return i
		}
	}
	return -1
}
