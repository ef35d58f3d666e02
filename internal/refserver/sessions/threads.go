package sessions

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// Session threads (docs/session-events-wire.md section 7). Every session has
// a primary thread; a coordinator's Spawn step creates child threads that
// run their own steps, with their own agent and model. The session stream
// shows the primary-thread view (7.3): a child's lifecycle events, its tool
// calls that wait on the client, and the coordinator's thread messages. A
// child's other events are kept in the thread's own log, behind a feed of
// its own, which the thread endpoints serve (threads_http.go,
// docs/session-events-wire.md 2.4).

// advisorAgentName is the agent_name of advisor threads
// (docs/session-events-wire.md 7.1).
const advisorAgentName = "vendor.advisor"

// The kinds of thread agent (the agent object's type on the wire).
const (
	threadKindAgent   = "agent"   // an Agent resource's version: the session's agent or a roster agent
	threadKindAdvisor = "advisor" // an advisor consultation
	threadKindInline  = "inline"  // an inline subagent running the owner's definition
)

type thread struct {
	id      string
	name    string // agent_name
	kind    string // threadKind…; the primary's is threadKindAgent
	child   bool
	version *agents.Version    // a child's agent; nil for the primary (the session's agent) and the advisor
	model   agents.ModelConfig // a child's model
	log     []*sessionEvent    // a child's own events; appended through feed
	// feed serves the thread's stream: the session's feed for the primary
	// (the primary-thread view), one over log for a child.
	feed *feed
	// parent is the thread that spawned a child; nil for the primary.
	parent *thread
	// createdAt, updatedAt (its last status change) and archivedAt (zero
	// while not archived) are the thread resource's times.
	createdAt, updatedAt, archivedAt time.Time
	turn                             *turn
	// lastStop is the reason of its last idle; the zero value is end_turn.
	lastStop stopReason
	// lastText is the text of its last agent.message: a child's report.
	lastText string
	// span is the vendor.session.turn span of its current stay in
	// running, nil while it is idle or waits; inputFrom is where the
	// session log holds its next stay's input (tracing_engine.go).
	span      *turnSpan
	inputFrom int
}

// running reports whether the thread is in a turn that is not waiting on
// the client or the budget (a Hold is running).
func (th *thread) running() bool {
	return th.turn != nil && (th.turn.wait == waitNone || th.turn.wait == waitHold)
}

func (e *engine) agentOf(th *thread) *agents.Version {
	if th.child {
		return th.version
	}
	return e.x.agent
}

func (e *engine) modelOf(th *thread) agents.ModelConfig {
	if th.child {
		return th.model
	}
	return e.x.agent.Model
}

// liveChildren counts the child threads that are not archived: the ones
// the limit of docs/session-events-wire.md 7.1 counts.
func (e *engine) liveChildren() int {
	n := 0
	for _, th := range e.threads[1:] {
		if th.archivedAt.IsZero() {
			n++
		}
	}
	return n
}

// threadAgent is what a Spawn name resolves to.
type threadAgent struct {
	kind    string // threadKindAgent, threadKindAdvisor or threadKindInline
	name    string
	version *agents.Version // nil for the advisor
	model   agents.ModelConfig
}

// resolveThreadAgent finds agentName in the roster of owner's multiagent
// configuration: a coordinator's agents (self included) and advisor, or a
// multiagent_20261001's predefined subagents and advisor; with inline
// subagents enabled, any other name is an inline agent running the owner's
// definition.
func resolveThreadAgent(owner *agents.Version, agentName string) (threadAgent, bool) {
	m := owner.Multiagent
	if m == nil {
		return threadAgent{}, false
	}
	advisor := func(model string) threadAgent {
		return threadAgent{kind: threadKindAdvisor, name: advisorAgentName, model: agents.ModelConfig{ID: model, Effort: agents.DefaultEffort, Speed: "standard"}}
	}
	find := func(entries []agents.RosterEntry) (threadAgent, bool) {
		for _, e := range entries {
			switch e.Kind {
			case agents.RosterKindSelf:
				if owner.Name == agentName {
					return threadAgent{kind: threadKindAgent, name: owner.Name, version: owner, model: owner.Model}, true
				}
			case agents.RosterKindAgent:
				if e.Agent.Name == agentName {
					return threadAgent{kind: threadKindAgent, name: e.Agent.Name, version: e.Agent, model: e.Agent.Model}, true
				}
			case agents.RosterKindAdvisor:
				if agentName == advisorAgentName {
					return advisor(e.AdvisorModel), true
				}
			}
		}
		return threadAgent{}, false
	}
	if m.Type == agents.MultiagentCoordinator {
		return find(m.Roster)
	}
	if m.AdvisorEnabled && agentName == advisorAgentName {
		return advisor(m.AdvisorModel), true
	}
	if !m.Subagents.Enabled {
		return threadAgent{}, false
	}
	if ta, ok := find(m.Subagents.Predefined); ok {
		return ta, true
	}
	if m.Subagents.Inline {
		return threadAgent{kind: threadKindInline, name: agentName, version: owner, model: owner.Model}, true
	}
	return threadAgent{}, false
}

// spawn carries out a Spawn step of parent (the primary): a new child
// thread, announced on the session stream (docs/session-events-wire.md
// 7.2), which runs at
// once until it ends or waits; then the coordinator continues.
func (e *engine) spawn(parent *thread, st script.Op) {
	if e.liveChildren() >= script.MaxChildThreads {
		return // compileTurns prevents it; a later agent version could not
	}
	ta, ok := resolveThreadAgent(e.x.agent, st.Name)
	if !ok { // the session's agent changed since the script was checked
		ta = threadAgent{kind: threadKindInline, name: st.Name, version: e.x.agent, model: e.x.agent.Model}
	}
	child := &thread{id: e.s.cfg.ids("sthr_"), name: ta.name, kind: ta.kind, child: true, version: ta.version, model: ta.model,
		parent: parent, createdAt: e.now, updatedAt: e.now}
	child.feed = newFeed(&child.log)
	if child.version == nil {
		child.version = &agents.Version{Agent: e.x.agent.Agent, Name: ta.name, Model: ta.model}
	}
	e.threads = append(e.threads, child)
	e.threadByID[child.id] = child
	task := parent.turn.task
	if task == "" {
		task = "Begin the task."
	}
	e.emit("session.thread_created", threadCreatedJSON{SessionThreadID: child.id, AgentName: child.name})
	e.emit("agent.thread_message_sent", threadMessageSentJSON{ToSessionThreadID: child.id, ToAgentName: &child.name,
		Content: textContent(task)})
	child.turn = &turn{steps: st.Steps, task: task}
	e.startTurnSpan(child, parent)
	e.markRunning(child)
	e.advance(child)
}

// childFinished sends a child's report to the coordinator
// (docs/session-events-wire.md 7.2):
// the primary takes it in its next model request, or starts a turn for it
// when idle.
func (e *engine) childFinished(th *thread) {
	report := th.lastText
	if report == "" {
		report = "Done."
	}
	e.emit("agent.thread_message_received", threadMessageReceivedJSON{FromSessionThreadID: th.id, FromAgentName: &th.name,
		Content: textContent(report)})
	if e.primary.turn == nil && e.trigger == nil {
		e.trigger = &turnTrigger{preset: script.ReportTurn(th.name, report)}
	}
}

type threadCreatedJSON struct {
	SessionThreadID string  `json:"session_thread_id"`
	AgentName       string  `json:"agent_name"`
	WorkflowRunID   *string `json:"workflow_run_id"`
}

type threadStatusJSON struct {
	SessionThreadID string `json:"session_thread_id"`
	AgentName       string `json:"agent_name"`
}

type threadIdleJSON struct {
	SessionThreadID string `json:"session_thread_id"`
	AgentName       string `json:"agent_name"`
	StopReason      any    `json:"stop_reason"`
	StopDetails     any    `json:"stop_details"`
}

type threadMessageSentJSON struct {
	ToSessionThreadID string      `json:"to_session_thread_id"`
	ToAgentName       *string     `json:"to_agent_name"`
	Content           []textBlock `json:"content"`
}

type threadMessageReceivedJSON struct {
	FromSessionThreadID string      `json:"from_session_thread_id"`
	FromAgentName       *string     `json:"from_agent_name"`
	Content             []textBlock `json:"content"`
}
