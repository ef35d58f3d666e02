package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/param"
)

// Events of the session and its threads (docs/session-events-wire.md
// 4.9-4.12).

// SessionStatusRunningEvent says the session started running (a turn
// began).
type SessionStatusRunningEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionStatusIdleEvent says no thread is running; StopReason says why and
// what the client should do next.
type SessionStatusIdleEvent struct {
	EventMeta
	StopReason  StopReason  `json:"stop_reason"`
	StopDetails StopDetails `json:"stop_details"` // nil except after a refusal
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionStatusRescheduledEvent reports a transient error; the server
// retries by itself (status "rescheduling").
type SessionStatusRescheduledEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionStatusTerminatedEvent says the session ended for good; nothing
// follows it, and the stream ends after it.
type SessionStatusTerminatedEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionThreadCreatedEvent says a coordinator created a child thread
// (ThreadID).
type SessionThreadCreatedEvent struct {
	EventMeta
	AgentName     string `json:"agent_name"`
	WorkflowRunID string `json:"workflow_run_id,omitzero"` // "" when null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionThreadStatusRunningEvent says the thread ThreadID started running.
type SessionThreadStatusRunningEvent struct {
	EventMeta
	AgentName string `json:"agent_name"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionThreadStatusIdleEvent says the thread ThreadID yielded, with its
// own stop reason; on a single-agent session only at a budget pause.
type SessionThreadStatusIdleEvent struct {
	EventMeta
	AgentName   string      `json:"agent_name"`
	StopReason  StopReason  `json:"stop_reason"`
	StopDetails StopDetails `json:"stop_details"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionThreadStatusRescheduledEvent says the thread ThreadID is retrying.
type SessionThreadStatusRescheduledEvent struct {
	EventMeta
	AgentName string `json:"agent_name"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionThreadStatusTerminatedEvent says the thread ThreadID ended.
type SessionThreadStatusTerminatedEvent struct {
	EventMeta
	AgentName string `json:"agent_name"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionErrorEvent says something failed during a turn; Error.RetryStatus
// says what follows.
type SessionErrorEvent struct {
	EventMeta
	Error SessionError `json:"error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionUpdatedEvent says Update changed the session. Only what changed is
// set: Agent nil, Budget and Title omitted (IsZero) and Metadata nil mean
// "unchanged"; param.Null for Budget or Title means removed or cleared.
type SessionUpdatedEvent struct {
	EventMeta
	Agent    *Agent                 `json:"agent,omitzero"` // the whole agent after the update, when its tools or MCP servers changed
	Budget   param.Nullable[Budget] `json:"budget,omitzero"`
	Metadata map[string]string      `json:"metadata,omitzero"` // the whole map after the update; empty when cleared
	Title    param.Nullable[string] `json:"title,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionUsageEvent is a snapshot of the session's cumulative usage, sent
// right before every SessionStatusIdleEvent.
type SessionUsageEvent struct {
	EventMeta
	Usage  Usage   `json:"usage"`
	Budget *Budget `json:"budget"` // nil when the session has none
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionDeletedEvent says the session was deleted. It is the last event of
// any stream, and it is never listed.
type SessionDeletedEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}
