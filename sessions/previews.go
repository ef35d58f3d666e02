package sessions

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Previews (docs/session-events-wire.md 5) show an agent.message while the
// model writes it, and that the model has begun to think. They are asked
// for with StreamParams.EventDeltas, arrive only on the live stream, are
// best effort, and are never listed. The final event of a preview carries
// the preview's id and the complete content, and replaces it.

// EventStart announces a preview (type "event_start").
type EventStart struct {
	// Event is the event being previewed: its type (EventAgentMessage or
	// EventAgentThinking) and the id its final event will carry.
	Event PreviewedEvent `json:"event"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PreviewedEvent names a previewed event.
type PreviewedEvent struct {
	Type EventType `json:"type"`
	ID   string    `json:"id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// EventDelta is a fragment of an agent.message preview (type
// "event_delta").
type EventDelta struct {
	EventID string       `json:"event_id"` // the previewed event's id
	Delta   ContentDelta `json:"delta"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentDelta extends entry Index of the previewed event's content: the
// first delta of an index starts that entry, later ones append to it.
type ContentDelta struct {
	Type    string       `json:"type"`    // "content_delta"
	Index   int          `json:"index"`   // the entry of the final event's content it extends
	Content ContentBlock `json:"content"` // a TextBlock fragment
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainPreviewedEvent PreviewedEvent
	plainContentDelta   ContentDelta
)

// MarshalJSON writes the wire object.
func (e PreviewedEvent) MarshalJSON() ([]byte, error) { return wire.Marshal(plainPreviewedEvent(e)) }

// UnmarshalJSON decodes the wire object.
func (e *PreviewedEvent) UnmarshalJSON(data []byte) error {
	*e = PreviewedEvent{}
	return wire.Unmarshal(data, (*plainPreviewedEvent)(e))
}

// MarshalJSON writes the wire object.
func (d ContentDelta) MarshalJSON() ([]byte, error) { return wire.Marshal(plainContentDelta(d)) }

// UnmarshalJSON decodes the wire object.
func (d *ContentDelta) UnmarshalJSON(data []byte) error {
	*d = ContentDelta{}
	return wire.Unmarshal(data, (*plainContentDelta)(d), unions)
}

func (*EventStart) isEvent() {}
func (*EventDelta) isEvent() {}

// Previews folds a stream's previews into the text shown so far. Give it
// every event of the stream, in order; it keeps what is still being
// written:
//
//	var previews sessions.Previews
//	for ev, err := range stream.Events() {
//		…
//		previews.Add(ev)
//		if d, ok := ev.(*sessions.EventDelta); ok {
//			render(d.EventID, previews.Text(d.EventID))
//		}
//	}
//
// Fragments are accumulated by (event id, content index). A preview is
// dropped when its final event arrives (the event with its id, which
// carries the complete content) or when the model request that opened it
// ends (span.model_request_end): a request cut short by an error or an
// interrupt produces no final event. The zero value is ready to use, and it
// is safe for concurrent use.
type Previews struct {
	mu   sync.Mutex
	open map[string]*preview
	seq  int
}

type preview struct {
	typ    EventType
	seq    int
	blocks []previewBlock // by index
}

type previewBlock struct {
	index int
	text  []byte
}

// Add takes the next event of the stream.
func (p *Previews) Add(ev Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *EventStart:
		p.start(ev.Event.ID, ev.Event.Type)
	case *EventDelta:
		pv := p.start(ev.EventID, EventAgentMessage)
		if t, ok := ev.Delta.Content.(TextBlock); ok {
			b := pv.block(ev.Delta.Index)
			b.text = append(b.text, t.Text...)
		}
	case *SpanModelRequestEndEvent:
		clear(p.open)
	case PersistedEvent:
		delete(p.open, ev.Meta().ID)
	}
}

func (p *Previews) start(id string, typ EventType) *preview {
	if pv, ok := p.open[id]; ok {
		return pv
	}
	if p.open == nil {
		p.open = map[string]*preview{}
	}
	p.seq++
	pv := &preview{typ: typ, seq: p.seq}
	p.open[id] = pv
	return pv
}

func (pv *preview) block(index int) *previewBlock {
	i, found := slices.BinarySearchFunc(pv.blocks, index, func(b previewBlock, index int) int { return b.index - index })
	if !found {
		pv.blocks = slices.Insert(pv.blocks, i, previewBlock{index: index})
	}
	return &pv.blocks[i]
}

// Text returns the text previewed so far for the event eventID, its
// content entries in order; "" when there is no open preview of it.
func (p *Previews) Text(eventID string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	pv, ok := p.open[eventID]
	if !ok {
		return ""
	}
	var b strings.Builder
	for i := range pv.blocks {
		b.Write(pv.blocks[i].text)
	}
	return b.String()
}

// BlockText returns the text previewed so far for entry index of the
// content of the event eventID.
func (p *Previews) BlockText(eventID string, index int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	pv, ok := p.open[eventID]
	if !ok {
		return ""
	}
	for i := range pv.blocks {
		if pv.blocks[i].index == index {
			return string(pv.blocks[i].text)
		}
	}
	return ""
}

// Open returns the previews still open, in the order they started.
func (p *Previews) Open() []PreviewedEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	type entry struct {
		PreviewedEvent
		seq int
	}
	entries := make([]entry, 0, len(p.open))
	for id, pv := range p.open {
		entries = append(entries, entry{PreviewedEvent{Type: pv.typ, ID: id}, pv.seq})
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.seq - b.seq })
	out := make([]PreviewedEvent, len(entries))
	for i, e := range entries {
		out[i] = e.PreviewedEvent
	}
	return out
}

// plainDelta decodes data, the data of an event_delta event, when it is
// exactly in the form the API writes:
//
//	{"type":"event_delta","event_id":"…","delta":{"type":"content_delta","index":N,"content":{"type":"text","text":"…"}}}
//
// Deltas are most of a stream with previews (see fastpath.go).
func plainDelta(data []byte) (*EventDelta, bool) {
	const (
		head    = `{"type":"event_delta","event_id":`
		delta   = `,"delta":{"type":"content_delta","index":`
		content = `,"content":{"type":"text","text":`
		tail    = `}}}`
	)
	rest, ok := bytes.CutPrefix(data, []byte(head))
	if !ok {
		return nil, false
	}
	end := bytes.IndexByte(rest[min(1, len(rest)):], '"') + 2 // the id has no escapes
	if end < 2 {
		return nil, false
	}
	id, ok := wire.String(rest[:end])
	if !ok {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest[end:], []byte(delta)); !ok {
		return nil, false
	}
	n := 0
	for n < len(rest) && n < 9 && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	if n == 0 || (n > 1 && rest[0] == '0') {
		return nil, false
	}
	index, err := strconv.Atoi(string(rest[:n]))
	if err != nil {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest[n:], []byte(content)); !ok {
		return nil, false
	}
	str, ok := bytes.CutSuffix(rest, []byte(tail))
	if !ok {
		return nil, false
	}
	text, ok := wire.String(str)
	if !ok {
		return nil, false
	}
	return &EventDelta{EventID: id, Delta: ContentDelta{Type: "content_delta", Index: index, Content: TextBlock{Text: text}}}, true
}
