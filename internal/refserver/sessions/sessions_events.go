package sessions

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Event parameters of initial_events (docs/managed-agents-wire.md 3.10) and
// the per-session event log they are appended to. Session create accepts
// 0–50 of them, deployments 1–50, and a deployment hands its list to every
// session it creates, so both parse with parseEventParams.

var initialEventTypes = []string{"user.message", "user.define_outcome", "system.message"}

const (
	maxInitialEvents       = 50
	maxRubricText          = 262144
	maxOutcomeIterations   = 20
	defaultMaxIterations   = 3
	systemMessagePlacement = "system.message must be the last event and follow a user.message"
)

// eventParam is one validated event parameter.
type eventParam struct {
	typ string
	// payload is the object as received, re-encoded compactly: what the
	// session's event log records.
	payload json.RawMessage
	// stored is the deployment's echo (docs/managed-agents-wire.md 3.10,
	// "stored form"): the payload with
	// max_iterations resolved for user.define_outcome (**choice**:
	// determinism), the payload itself otherwise.
	stored json.RawMessage
}

// parseEventParams reads an initial_events array at path with between minN
// and maxN entries.
func parseEventParams(path string, raw json.RawMessage, minN, maxN int) ([]eventParam, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), minN, maxN); err != nil {
		return nil, err
	}
	out := make([]eventParam, 0, len(items))
	for i, item := range items {
		p := kit.IndexPath(path, i)
		typ, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		ev := eventParam{typ: typ, payload: kit.CompactJSON(item)}
		ev.stored = ev.payload
		switch typ {
		case "user.message":
			err = parseMessageParam(p, item)
		case "system.message":
			if err = parseMessageParam(p, item); err == nil {
				// At most one system.message, the final event, right after the
				// turn it accompanies; in initial_events no tool result can
				// precede it, so that is a user.message.
				if i != len(items)-1 || i == 0 || out[i-1].typ != "user.message" {
					err = kit.InvalidField(p, systemMessagePlacement)
				}
			}
		case "user.define_outcome":
			ev.stored, err = parseDefineOutcomeParam(p, item)
		default:
			err = kit.BadType(p, initialEventTypes...)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

type messageParamBody struct {
	Type    kit.Optional[string]          `json:"type"`
	Content kit.Optional[json.RawMessage] `json:"content"`
}

type textBlockBody struct {
	Type kit.Optional[string] `json:"type"`
	Text kit.Optional[string] `json:"text"`
}

// parseMessageParam checks a user.message or system.message: content is a
// non-empty array of text blocks with non-empty text (**choice**: text
// only; docs/session-events-wire.md 11, choice 7).
func parseMessageParam(path string, raw json.RawMessage) error {
	var body messageParamBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return err
	}
	contentPath := kit.JoinPath(path, "content")
	if err := kit.Required(contentPath, body.Content); err != nil {
		return err
	}
	blocks, err := kit.ArrayAt(contentPath, body.Content.Value)
	if err != nil {
		return err
	}
	if len(blocks) == 0 {
		return kit.InvalidField(contentPath, "must have at least 1 item")
	}
	return checkTextBlocks(contentPath, blocks)
}

type defineOutcomeBody struct {
	Type          kit.Optional[string]          `json:"type"`
	Description   kit.Optional[string]          `json:"description"`
	Rubric        kit.Optional[json.RawMessage] `json:"rubric"`
	MaxIterations kit.Optional[int64]           `json:"max_iterations"`
}

type rubricTextBody struct {
	Type    kit.Optional[string] `json:"type"`
	Content kit.Optional[string] `json:"content"`
}

type rubricFileBody struct {
	Type   kit.Optional[string] `json:"type"`
	FileID kit.Optional[string] `json:"file_id"`
}

type defineOutcomeStored struct {
	Type          string          `json:"type"`
	Description   string          `json:"description"`
	Rubric        json.RawMessage `json:"rubric"`
	MaxIterations int64           `json:"max_iterations"`
}

// parseDefineOutcomeParam checks a user.define_outcome and returns its
// stored form.
func parseDefineOutcomeParam(path string, raw json.RawMessage) (json.RawMessage, error) {
	var body defineOutcomeBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	descPath := kit.JoinPath(path, "description")
	if err := kit.Required(descPath, body.Description); err != nil {
		return nil, err
	}
	if body.Description.Value == "" {
		return nil, kit.InvalidField(descPath, "must be at least 1 character")
	}
	rubricPath := kit.JoinPath(path, "rubric")
	if err := kit.Required(rubricPath, body.Rubric); err != nil {
		return nil, err
	}
	typ, err := kit.TypeAt(rubricPath, body.Rubric.Value)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "text":
		var rb rubricTextBody
		if err := kit.DecodeAt(rubricPath, body.Rubric.Value, &rb); err != nil {
			return nil, err
		}
		p := kit.JoinPath(rubricPath, "content")
		if err := kit.Required(p, rb.Content); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(p, rb.Content.Value, 1, maxRubricText); err != nil {
			return nil, err
		}
	case "file":
		var rb rubricFileBody
		if err := kit.DecodeAt(rubricPath, body.Rubric.Value, &rb); err != nil {
			return nil, err
		}
		p := kit.JoinPath(rubricPath, "file_id")
		if err := kit.Required(p, rb.FileID); err != nil {
			return nil, err
		}
		if err := checkFileID(p, rb.FileID.Value); err != nil {
			return nil, err
		}
	default:
		return nil, kit.BadType(rubricPath, "text", "file")
	}
	iterations := int64(defaultMaxIterations)
	if body.MaxIterations.Present() {
		iterations = body.MaxIterations.Value
		if iterations < 1 || iterations > maxOutcomeIterations {
			return nil, kit.InvalidField(kit.JoinPath(path, "max_iterations"), "must be between 1 and %d", maxOutcomeIterations)
		}
	}
	stored, err := json.Marshal(defineOutcomeStored{Type: "user.define_outcome", Description: body.Description.Value,
		Rubric: kit.CompactJSON(body.Rubric.Value), MaxIterations: iterations})
	if err != nil {
		return nil, err
	}
	return stored, nil
}

// checkFileID checks a file reference: 1–128 characters and the file_
// prefix (docs/managed-agents-wire.md 1.2: files have no endpoints yet, so nothing is
// looked up).
func checkFileID(path, id string) error {
	if err := kit.CheckLength(path, id, 1, 128); err != nil {
		return err
	}
	if !strings.HasPrefix(id, "file_") {
		return kit.InvalidField(path, "must be a file id (`file_…`)")
	}
	return nil
}

// sessionEvent is one entry of an event log: the session's (what List
// Events and the session stream show) or a child thread's.
type sessionEvent struct {
	id          string
	typ         string
	processedAt time.Time
	// raw is the whole event as it goes on the wire, rendered once when it
	// is recorded (events_render.go).
	raw json.RawMessage
}

// view returns the event's wire form.
func (e *sessionEvent) view() json.RawMessage { return e.raw }

// acceptEventsLocked records events on sess, each with a fresh sevt_ id
// and processed_at now, in order, and applies what each one does to the
// session's engine: a turn to start, a tool call answered, an interrupt
// (which takes effect at once). It does not run the engine: the caller
// renders what it must (Create Session's response shows the state right
// after acceptance), then calls sess.eng.finish. Events the engine accepts
// and ignores (an interrupt at the budget cap) are not returned.
func (s *Service) acceptEventsLocked(sess *session, events []eventParam, now time.Time) []*sessionEvent {
	return sess.eng.accept(events, now)
}
