package sessions

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Thread is a session thread (type "session_thread",
// docs/session-events-wire.md 7.6): the primary thread every session has,
// or a child thread a multiagent session's coordinator spawned. Nullable
// fields of the wire read as their zero value: ParentThreadID and
// WorkflowRunID "", Stats and Usage nil, ArchivedAt the zero time.
type Thread struct {
	Type      string `json:"type"`
	ID        string `json:"id"` // "sthr_…"
	SessionID string `json:"session_id"`
	// Agent is what the thread runs, as it was when the thread was
	// created: a *RosterThreadAgent, *InlineThreadAgent,
	// *AdvisorThreadAgent or *UnknownThreadAgent.
	Agent ThreadAgent `json:"agent"`
	// ParentThreadID is the thread that spawned this one; "" for the
	// primary thread.
	ParentThreadID string `json:"parent_thread_id,omitzero"`
	// Status is the thread's own: StatusRunning, StatusIdle (waiting for
	// input included), StatusRescheduling or StatusTerminated (archived,
	// or its session archived or terminated: no further event).
	Status Status `json:"status"`
	// Stats and Usage are nil until the server accounts for the thread.
	Stats         *ThreadStats `json:"stats"`
	Usage         *Usage       `json:"usage"`
	WorkflowRunID string       `json:"workflow_run_id,omitzero"`
	// ArchivedAt is zero until the thread is archived.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the thread has been archived.
func (t *Thread) Archived() bool { return !t.ArchivedAt.IsZero() }

// Primary reports whether t is its session's primary thread.
func (t *Thread) Primary() bool { return t.ParentThreadID == "" }

// AgentName is the name the thread's events carry as agent_name: its
// agent's name, or "vendor.advisor" for an advisor consultation.
func (t *Thread) AgentName() string {
	switch a := t.Agent.(type) {
	case *RosterThreadAgent:
		return a.Name
	case *InlineThreadAgent:
		return a.Name
	case *AdvisorThreadAgent:
		return AdvisorAgentName
	}
	return ""
}

// AdvisorAgentName is the agent_name of advisor threads.
const AdvisorAgentName = "vendor.advisor"

// ThreadStats are a thread's timings.
type ThreadStats struct {
	ActiveSeconds   float64 `json:"active_seconds"`
	DurationSeconds float64 `json:"duration_seconds"`
	StartupSeconds  float64 `json:"startup_seconds"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainThread             Thread
	plainThreadStats        ThreadStats
	plainInlineThreadAgent  InlineThreadAgent
	plainAdvisorThreadAgent AdvisorThreadAgent
)

// MarshalJSON writes the thread's wire object.
func (t Thread) MarshalJSON() ([]byte, error) { return wire.Marshal(plainThread(t)) }

// UnmarshalJSON decodes the thread's wire object, its agent into its
// variant.
func (t *Thread) UnmarshalJSON(data []byte) error {
	*t = Thread{}
	return wire.Unmarshal(data, (*plainThread)(t), unions)
}

// MarshalJSON writes the wire object.
func (s ThreadStats) MarshalJSON() ([]byte, error) { return wire.Marshal(plainThreadStats(s)) }

// UnmarshalJSON decodes the wire object.
func (s *ThreadStats) UnmarshalJSON(data []byte) error {
	*s = ThreadStats{}
	return wire.Unmarshal(data, (*plainThreadStats)(s))
}

// ThreadAgent is a thread's agent: *RosterThreadAgent (type "agent"),
// *InlineThreadAgent ("inline"), *AdvisorThreadAgent ("advisor") or
// *UnknownThreadAgent.
type ThreadAgent interface{ isThreadAgent() }

// RosterThreadAgent runs an Agent resource's version: the session's own
// agent (the primary thread) or a roster agent.
type RosterThreadAgent struct{ agents.RosterAgent }

// InlineThreadAgent is an agent defined inline, with no Agent resource
// behind it (no id or version): an inline subagent.
type InlineThreadAgent struct {
	Name string `json:"name"`
	// Description and System are "" when unset (null on the wire).
	Description       string                   `json:"description,omitzero"`
	System            string                   `json:"system,omitzero"`
	Model             agents.ModelConfig       `json:"model"`
	Tools             []agents.Tool            `json:"tools"`
	MCPServers        []agents.MCPServer       `json:"mcp_servers"`
	Skills            []agents.Skill           `json:"skills"`
	ExecutionIdentity agents.ExecutionIdentity `json:"execution_identity"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AdvisorThreadAgent is an advisor consultation's model.
type AdvisorThreadAgent struct {
	Model string `json:"model"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownThreadAgent is an agent type this SDK does not know, kept as
// received.
type UnknownThreadAgent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (*RosterThreadAgent) isThreadAgent()  {}
func (*InlineThreadAgent) isThreadAgent()  {}
func (*AdvisorThreadAgent) isThreadAgent() {}
func (*UnknownThreadAgent) isThreadAgent() {}

// MarshalJSON writes {"type": "inline", …}.
func (a InlineThreadAgent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("inline", plainInlineThreadAgent(a))
}

// UnmarshalJSON reads the variant's object.
func (a *InlineThreadAgent) UnmarshalJSON(data []byte) error {
	*a = InlineThreadAgent{}
	return decodeVariant(data, (*plainInlineThreadAgent)(a), unions)
}

// MarshalJSON writes {"type": "advisor", …}.
func (a AdvisorThreadAgent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("advisor", plainAdvisorThreadAgent(a))
}

// UnmarshalJSON reads the variant's object.
func (a *AdvisorThreadAgent) UnmarshalJSON(data []byte) error {
	*a = AdvisorThreadAgent{}
	return decodeVariant(data, (*plainAdvisorThreadAgent)(a))
}

// MarshalJSON writes the object as received.
func (u UnknownThreadAgent) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func decodeThreadAgentUnion(typ string, obj []byte) (ThreadAgent, error) {
	switch typ {
	case "agent":
		a := new(RosterThreadAgent)
		if err := a.UnmarshalJSON(obj); err != nil {
			return nil, err
		}
		return a, nil
	case "inline":
		p, err := newVariant[plainInlineThreadAgent](obj, unions)
		if err != nil {
			return nil, err
		}
		return (*InlineThreadAgent)(p), nil
	case "advisor":
		p, err := newVariant[plainAdvisorThreadAgent](obj)
		if err != nil {
			return nil, err
		}
		return (*AdvisorThreadAgent)(p), nil
	}
	return &UnknownThreadAgent{Type: typ, JSON: canonical(obj)}, nil
}
