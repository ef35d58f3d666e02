package sessions

import (
	"bytes"
	"time"
	"unicode/utf8"
)

// The stream decoder's shortcuts. Decoding an event with the general
// decoder costs about twice what the rest of the stream costs per event,
// which leaves a stream slower than a bufio.Scanner and encoding/json
// client (BenchmarkStreamDecoding, x-scanner). Most events of a stream
// come in a handful of fixed forms, the ones the API writes: those are
// matched byte for byte here and read directly, every byte checked as the
// decoder checks it; anything else, even the same event with its members
// in another order, takes the general decoding. FuzzFastPaths checks that
// whatever a shortcut accepts decodes to the same event the general way.

// shortcut decodes data, the data of an event of type typ, when it is in
// one of the fixed forms.
func shortcut(typ EventType, data []byte) (Event, bool) {
	switch typ {
	case EventPreviewDelta:
		if ev, ok := plainDelta(data); ok {
			return ev, true
		}
	case EventPreviewStart:
		if ev, ok := plainStart(data); ok {
			return ev, true
		}
	case EventSessionStatusRunning, EventSessionStatusRescheduled, EventSessionStatusTerminated,
		EventSessionDeleted, EventAgentThinking, EventAgentThreadContextCompacted, EventSpanModelRequestStart:
		return plainMeta(typ, data)
	}
	return nil, false
}

// plainMeta reads the events that carry nothing but the common keys, in
// the form {"id":"…","processed_at":"…","type":"…"}.
func plainMeta(typ EventType, data []byte) (Event, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"id":`))
	if !ok {
		return nil, false
	}
	id, rest, ok := plainString(rest)
	if !ok {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"processed_at":`)); !ok {
		return nil, false
	}
	ts, rest, ok := plainString(rest)
	if !ok {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"type":`)); !ok {
		return nil, false
	}
	t, rest, ok := plainString(rest)
	if !ok || string(t) != string(typ) || string(rest) != "}" {
		return nil, false
	}
	at, ok := plainTime(string(ts))
	if !ok {
		return nil, false
	}
	m := EventMeta{ID: string(id), ProcessedAt: at}
	switch typ {
	case EventSessionStatusRunning:
		return &SessionStatusRunningEvent{EventMeta: m}, true
	case EventSessionStatusRescheduled:
		return &SessionStatusRescheduledEvent{EventMeta: m}, true
	case EventSessionStatusTerminated:
		return &SessionStatusTerminatedEvent{EventMeta: m}, true
	case EventSessionDeleted:
		return &SessionDeletedEvent{EventMeta: m}, true
	case EventAgentThinking:
		return &AgentThinkingEvent{EventMeta: m}, true
	case EventAgentThreadContextCompacted:
		return &AgentThreadContextCompactedEvent{EventMeta: m}, true
	case EventSpanModelRequestStart:
		return &SpanModelRequestStartEvent{EventMeta: m}, true
	}
	return nil, false
}

// plainStart reads a preview's start in the form
// {"type":"event_start","event":{"type":"…","id":"…"}}.
func plainStart(data []byte) (*EventStart, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"type":"event_start","event":{"type":`))
	if !ok {
		return nil, false
	}
	typ, rest, ok := plainString(rest)
	if !ok {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"id":`)); !ok {
		return nil, false
	}
	id, rest, ok := plainString(rest)
	if !ok || string(rest) != "}}" {
		return nil, false
	}
	return &EventStart{Event: PreviewedEvent{Type: EventType(typ), ID: string(id)}}, true
}

// plainString reads the JSON string at the start of b when it has no
// escapes, and returns its value's bytes and what follows it.
func plainString(b []byte) (value, rest []byte, ok bool) {
	if len(b) < 2 || b[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(b[1:], '"') + 1
	if end < 1 {
		return nil, nil, false
	}
	value = b[1:end]
	for _, c := range value {
		if c < 0x20 || c == '\\' {
			return nil, nil, false
		}
	}
	if !utf8.Valid(value) {
		return nil, nil, false
	}
	return value, b[end+1:], true
}

// plainTime parses a timestamp in the form the API writes,
// YYYY-MM-DDTHH:MM:SS[.fraction]Z; others are left to the decoder.
func plainTime(s string) (time.Time, bool) {
	const layout = "0000-00-00T00:00:00"
	if len(s) < len(layout)+1 || s[len(s)-1] != 'Z' {
		return time.Time{}, false
	}
	for i := range len(layout) {
		if layout[i] == '0' {
			if s[i] < '0' || s[i] > '9' {
				return time.Time{}, false
			}
		} else if s[i] != layout[i] {
			return time.Time{}, false
		}
	}
	if frac := s[len(layout) : len(s)-1]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		for _, c := range []byte(frac[1:]) {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}
