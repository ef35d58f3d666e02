package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// What sessions add to their request spans (the engine's own spans are in
// tracing_engine.go).

// traceSessionCreated adds what vendor.sessions.create knows once the
// session exists, and parents the turn its initial events start.
func (s *Service) traceSessionCreated(c *kit.Call, x *session) func() {
	if span := spans.Recording(c); span != nil {
		span.SetAttributes(
			attr.SessionID.String(x.id),
			attr.GenAIAgentID.String(x.agent.Agent.ID),
			attr.GenAIAgentName.String(x.agent.Name),
			attr.GenAIRequestModel.String(x.agent.Model.ID),
			attr.SessionEnvironmentID.String(x.environmentID),
		)
	}
	return s.ParentTurns(c)
}

// traceSessionEvents adds gen_ai.conversation.id when the events name a
// thread (docs/tracing.md: an interrupt of one thread, an answer to a
// child thread's call; the first one named), and parents the turns the
// events start.
func (s *Service) traceSessionEvents(c *kit.Call, x *session, params []eventParam) func() {
	if span := spans.Recording(c); span != nil {
		if id := namedThread(x.eng, params); id != "" {
			span.SetAttributes(attr.GenAIConversationID.String(id))
		}
	}
	return s.ParentTurns(c)
}

func namedThread(e *engine, params []eventParam) string {
	for _, p := range params {
		f := fieldsOf(p)
		switch p.typ {
		case eventInterrupt:
			if f.SessionThreadID != nil && *f.SessionThreadID != "" {
				return *f.SessionThreadID
			}
		case eventConfirmation, eventToolResult, eventCustomResult:
			id := f.ToolUseID
			if p.typ == eventCustomResult {
				id = f.CustomToolUseID
			}
			if call := e.callByID[id]; call != nil && call.thread.child {
				return call.thread.id
			}
		}
	}
	return ""
}
