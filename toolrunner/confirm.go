package toolrunner

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/sessions"
)

// ConfirmRequest is a built-in or MCP tool call whose permission policy
// asked for a confirmation (evaluated_permission ask).
type ConfirmRequest struct {
	SessionID string
	// ToolUseID is the id of the call's event, the one the answer names.
	ToolUseID string
	// ThreadID is the child thread of a cross-posted call, "" for the
	// primary thread.
	ThreadID string
	// Name is the tool: a built-in tool (bash, edit, …) or a tool of the
	// MCP server MCPServerName.
	Name          string
	MCPServerName string // "" for a built-in tool
	Input         json.RawMessage
	// Event is the call's event: *sessions.AgentToolUseEvent or
	// *sessions.AgentMCPToolUseEvent.
	Event sessions.PersistedEvent
}

// Decision answers a ConfirmRequest. The zero Decision denies the call
// without a message.
type Decision struct {
	Allow bool
	// Message tells the model why the call was denied (deny only; at most
	// 10000 characters, longer ones are cut).
	Message string
}

// Allow lets the call run.
func Allow() Decision { return Decision{Allow: true} }

// Deny refuses the call; message, if not "", tells the model why.
func Deny(message string) Decision { return Decision{Message: message} }

// maxDenyMessage is the API's limit on a deny message, in characters.
const maxDenyMessage = 10000

// param is the user.tool_confirmation that carries d.
func (d Decision) param(toolUseID string) sessions.ToolConfirmationParam {
	if d.Allow {
		return sessions.Allow(toolUseID)
	}
	msg := d.Message
	if utf8.RuneCountInString(msg) > maxDenyMessage {
		msg = string([]rune(msg)[:maxDenyMessage])
	}
	return sessions.Deny(toolUseID, msg)
}

// confirmRequest builds the request for an asking call, or reports false
// for any other event.
func confirmRequest(sessionID string, ev sessions.Event) (ConfirmRequest, bool) {
	switch ev := ev.(type) {
	case *sessions.AgentToolUseEvent:
		if ev.EvaluatedPermission != sessions.PermissionAsk {
			return ConfirmRequest{}, false
		}
		return ConfirmRequest{SessionID: sessionID, ToolUseID: ev.ID, ThreadID: ev.ThreadID,
			Name: string(ev.Name), Input: ev.Input, Event: ev}, true
	case *sessions.AgentMCPToolUseEvent:
		if ev.EvaluatedPermission != sessions.PermissionAsk {
			return ConfirmRequest{}, false
		}
		return ConfirmRequest{SessionID: sessionID, ToolUseID: ev.ID, ThreadID: ev.ThreadID,
			Name: ev.Name, MCPServerName: ev.MCPServerName, Input: ev.Input, Event: ev}, true
	}
	return ConfirmRequest{}, false
}

// decide calls the application's confirm function; a panic denies.
func decide(ctx context.Context, fn func(context.Context, ConfirmRequest) Decision, req ConfirmRequest, log *slog.Logger) (d Decision) {
	defer func() {
		if p := recover(); p != nil {
			log.ErrorContext(ctx, "toolrunner: confirm function panicked; denying the call",
				"session_id", req.SessionID, "tool_use_id", req.ToolUseID, "tool", req.Name,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			d = Deny("The call could not be confirmed.")
		}
	}()
	return fn(ctx, req)
}
