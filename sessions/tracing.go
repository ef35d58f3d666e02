package sessions

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
)

// Span attributes of the session calls (docs/tracing.md). The session id of
// every call on one session's path is set by newRequest; the Result hooks
// here run only when the call's span records.

// sessionCreated records what vendor.sessions.create adds: the session,
// its agent as resolved, the agent's model and the environment.
func sessionCreated(s pipeline.Span, v any) {
	sess, ok := v.(*Session)
	if !ok {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 5)
	attrs = append(attrs,
		attr.SessionID.String(sess.ID),
		attr.GenAIAgentID.String(sess.Agent.ID),
		attr.GenAIAgentName.String(sess.Agent.Name),
		attr.SessionEnvironmentID.String(sess.EnvironmentID),
	)
	if sess.Agent.Model.ID != "" {
		attrs = append(attrs, attr.GenAIRequestModel.String(sess.Agent.Model.ID))
	}
	s.SetAttributes(attrs...)
}

// threadOf is the thread a batch of events names: that of its first
// interrupt of one thread, or "". gen_ai.conversation.id is set from it.
func threadOf(events []EventParam) string {
	for _, e := range events {
		switch e := e.(type) {
		case InterruptParam:
			if e.SessionThreadID != "" {
				return e.SessionThreadID
			}
		case *InterruptParam:
			if e != nil && e.SessionThreadID != "" {
				return e.SessionThreadID
			}
		}
	}
	return ""
}

// eventsSent names the thread that answers to a child thread's tool call
// went to. Such answers carry no thread id, the server routes them by the
// tool call (docs/session-events-wire.md 3.2), so the thread is known only
// from the recorded events Send returns. An interrupt of one thread, a
// conversation id option, or no thread at all leave the span as it is.
func eventsSent(s pipeline.Span, v any) {
	page, ok := v.(*eventPage)
	if !ok || s.ConversationID() != "" {
		return
	}
	thread := ""
	for _, ev := range page.Data {
		switch ev := ev.(type) {
		case *InterruptEvent:
			if ev.ThreadID != "" {
				return // the request named it already
			}
		case *ToolConfirmationEvent, *CustomToolResultEvent, *ToolResultEvent:
			if id := ev.(PersistedEvent).Meta().ThreadID; id != "" && thread == "" {
				thread = id
			}
		}
	}
	if thread != "" {
		s.SetAttributes(attr.GenAIConversationID.String(thread))
	}
}
