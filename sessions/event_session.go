package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
)

// Events of the session and its threads (docs/session-events-wire.md
// 4.9-4.12).

// SessionStatusRunningEvent says the session started running (a turn
// began).
type SessionStatusRunningEvent struct{ EventMeta }

// SessionStatusIdleEvent says no thread is running; StopReason says why and
// what the client should do next.
type SessionStatusIdleEvent struct {
	EventMeta
	StopReason  StopReason
	StopDetails StopDetails // nil except after a refusal
}

// SessionStatusRescheduledEvent reports a transient error; the server
// retries by itself (status "rescheduling").
type SessionStatusRescheduledEvent struct{ EventMeta }

// SessionStatusTerminatedEvent says the session ended for good; nothing
// follows it, and the stream ends after it.
type SessionStatusTerminatedEvent struct{ EventMeta }

// SessionThreadCreatedEvent says a coordinator created a child thread
// (ThreadID).
type SessionThreadCreatedEvent struct {
	EventMeta
	AgentName     string
	WorkflowRunID string // "" when null
}

// SessionThreadStatusRunningEvent says the thread ThreadID started running.
type SessionThreadStatusRunningEvent struct {
	EventMeta
	AgentName string
}

// SessionThreadStatusIdleEvent says the thread ThreadID yielded, with its
// own stop reason; on a single-agent session only at a budget pause.
type SessionThreadStatusIdleEvent struct {
	EventMeta
	AgentName   string
	StopReason  StopReason
	StopDetails StopDetails
}

// SessionThreadStatusRescheduledEvent says the thread ThreadID is retrying.
type SessionThreadStatusRescheduledEvent struct {
	EventMeta
	AgentName string
}

// SessionThreadStatusTerminatedEvent says the thread ThreadID ended.
type SessionThreadStatusTerminatedEvent struct {
	EventMeta
	AgentName string
}

// SessionErrorEvent says something failed during a turn; Error.RetryStatus
// says what follows.
type SessionErrorEvent struct {
	EventMeta
	Error SessionError
}

// SessionUpdatedEvent says Update changed the session. Only what changed is
// set: Agent nil, Budget and Title omitted (IsZero) and Metadata nil mean
// "unchanged"; param.Null for Budget or Title means removed or cleared.
type SessionUpdatedEvent struct {
	EventMeta
	Agent    *Agent // the whole agent after the update, when its tools or MCP servers changed
	Budget   param.Nullable[Budget]
	Metadata map[string]string // the whole map after the update; empty when cleared
	Title    param.Nullable[string]
}

// SessionUsageEvent is a snapshot of the session's cumulative usage, sent
// right before every SessionStatusIdleEvent.
type SessionUsageEvent struct {
	EventMeta
	Usage  Usage
	Budget *Budget // nil when the session has none
}

// SessionDeletedEvent says the session was deleted. It is the last event of
// any stream, and it is never listed.
type SessionDeletedEvent struct{ EventMeta }

func (*SessionStatusRunningEvent) Type() string           { return EventSessionStatusRunning }
func (*SessionStatusIdleEvent) Type() string              { return EventSessionStatusIdle }
func (*SessionStatusRescheduledEvent) Type() string       { return EventSessionStatusRescheduled }
func (*SessionStatusTerminatedEvent) Type() string        { return EventSessionStatusTerminated }
func (*SessionThreadCreatedEvent) Type() string           { return EventSessionThreadCreated }
func (*SessionThreadStatusRunningEvent) Type() string     { return EventSessionThreadStatusRunning }
func (*SessionThreadStatusIdleEvent) Type() string        { return EventSessionThreadStatusIdle }
func (*SessionThreadStatusRescheduledEvent) Type() string { return EventSessionThreadStatusRescheduled }
func (*SessionThreadStatusTerminatedEvent) Type() string  { return EventSessionThreadStatusTerminated }
func (*SessionErrorEvent) Type() string                   { return EventSessionError }
func (*SessionUpdatedEvent) Type() string                 { return EventSessionUpdated }
func (*SessionUsageEvent) Type() string                   { return EventSessionUsage }
func (*SessionDeletedEvent) Type() string                 { return EventSessionDeleted }

func (r *jsonReader) money() money.Money {
	var m money.Money
	r.object(func(key string) {
		switch key {
		case "amount":
			m.Amount = r.str()
		case "currency":
			m.Currency = r.str()
		default:
			r.skip()
		}
	})
	return m
}

func (r *jsonReader) budget() Budget {
	var b Budget
	r.object(func(key string) {
		switch key {
		case "type":
			b.Type = r.str()
		case "max_list_cost":
			b.MaxListCost = r.money()
		default:
			r.skip()
		}
	})
	return b
}

func (r *jsonReader) usage() Usage {
	var u Usage
	r.object(func(key string) {
		switch key {
		case "active_seconds":
			u.ActiveSeconds = r.float()
		case "cache_creation":
			r.object(func(key string) {
				switch key {
				case "ephemeral_1h_input_tokens":
					u.CacheCreation.Ephemeral1hInputTokens = r.int()
				case "ephemeral_5m_input_tokens":
					u.CacheCreation.Ephemeral5mInputTokens = r.int()
				default:
					r.skip()
				}
			})
		case "cache_read_input_tokens":
			u.CacheReadInputTokens = r.int()
		case "input_tokens":
			u.InputTokens = r.int()
		case "output_tokens":
			u.OutputTokens = r.int()
		case "list_cost":
			u.ListCost = r.money()
		case "server_tool_use":
			r.object(func(key string) {
				switch key {
				case "web_fetch_requests":
					u.ServerToolUse.WebFetchRequests = r.int()
				case "web_search_requests":
					u.ServerToolUse.WebSearchRequests = r.int()
				default:
					r.skip()
				}
			})
		default:
			r.skip()
		}
	})
	return u
}

func (e *SessionStatusIdleEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "stop_reason":
		e.StopReason = r.stopReason()
	case "stop_details":
		e.StopDetails = r.stopDetails()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *SessionThreadCreatedEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "agent_name":
		e.AgentName = r.str()
	case "workflow_run_id":
		e.WorkflowRunID = r.str()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *SessionThreadStatusIdleEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "agent_name":
		e.AgentName = r.str()
	case "stop_reason":
		e.StopReason = r.stopReason()
	case "stop_details":
		e.StopDetails = r.stopDetails()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func decodeAgentName(m *EventMeta, name *string, r *jsonReader, key string) {
	if key == "agent_name" {
		*name = r.str()
		return
	}
	m.decodeField(r, key)
}

func (e *SessionThreadStatusRunningEvent) decodeField(r *jsonReader, key string) {
	decodeAgentName(&e.EventMeta, &e.AgentName, r, key)
}

func (e *SessionThreadStatusRescheduledEvent) decodeField(r *jsonReader, key string) {
	decodeAgentName(&e.EventMeta, &e.AgentName, r, key)
}

func (e *SessionThreadStatusTerminatedEvent) decodeField(r *jsonReader, key string) {
	decodeAgentName(&e.EventMeta, &e.AgentName, r, key)
}

func (e *SessionErrorEvent) decodeField(r *jsonReader, key string) {
	if key == "error" {
		e.Error = r.sessionError()
		return
	}
	e.EventMeta.decodeField(r, key)
}

func (e *SessionUpdatedEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "agent":
		raw := r.raw()
		if r.err != nil || raw == "null" {
			return
		}
		e.Agent = new(Agent)
		if err := json.Unmarshal([]byte(raw), e.Agent); err != nil {
			r.fail("bad agent: " + err.Error())
		}
	case "budget":
		if r.null() {
			e.Budget = param.Null[Budget]()
		} else {
			e.Budget = param.Value(r.budget())
		}
	case "metadata":
		e.Metadata = map[string]string{}
		r.object(func(key string) { e.Metadata[key] = r.str() })
	case "title":
		if r.null() {
			e.Title = param.Null[string]()
		} else {
			e.Title = param.Value(r.str())
		}
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *SessionUsageEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "usage":
		e.Usage = r.usage()
	case "budget":
		if !r.null() {
			b := r.budget()
			e.Budget = &b
		}
	default:
		e.EventMeta.decodeField(r, key)
	}
}
