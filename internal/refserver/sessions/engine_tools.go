package sessions

import (
	"encoding/json"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// Tool calls (docs/session-events-wire.md 6.4, 4.4–4.7). A call is decided
// when the model makes
// it: the tool's permission policy (its configs[] entry, else the toolset's
// default_config) gives allow, ask or deny, and on a self_hosted environment
// the sandbox tools are run by the client. A call that waits on the client
// (ask, custom tools, client-run sandbox tools) blocks its thread; the
// others are run, or refused, by the server after the request ends.

// sandboxTools are the tools a self-hosted environment runs on the client.
var sandboxTools = []string{"bash", "read", "write", "edit", "glob", "grep"}

// Texts of error results (docs/session-events-wire.md 4.7).
const (
	textUserDenied  = "The user denied this tool call."
	textAutoDenied  = "This tool call was judged high-risk and was not run."
	textInterrupted = "Tool execution was interrupted before completion. Please retry."
)

type toolKind uint8

const (
	toolBuiltin toolKind = iota // agent.tool_use
	toolMCP                     // agent.mcp_tool_use
	toolCustom                  // agent.custom_tool_use
)

type callState uint8

const (
	callReady                callState = iota // decided (run or deny); its result not delivered yet
	callAwaitingConfirmation                  // ask: waits for user.tool_confirmation
	callAwaitingResult                        // waits for user.custom_tool_result or user.tool_result
	callClosed                                // answered, delivered, or closed by an interrupt
)

type toolCall struct {
	id         string // the sevt_ id of its tool-use event
	thread     *thread
	kind       toolKind
	name       string
	server     string // MCP server
	sandbox    bool   // a sandbox tool on a self-hosted environment: the client runs it
	state      callState
	deny       bool   // decided not to run
	denyText   string // the error result's text when denied
	output     toolOutput
	resultText string // what the client answered (custom tools)
	// readPath is the file_path of a read call without a scripted output:
	// when a file resource is mounted there, the result is its content
	// (engine_files.go).
	readPath string
}

// toolOutput is what a built-in or MCP tool returns when the server runs
// it: "ok" unless the step's ToolOutput option says otherwise.
type toolOutput struct {
	text    string
	isError bool
}

func (c *toolCall) blocking() bool {
	return c.state == callAwaitingConfirmation || c.state == callAwaitingResult
}

// sessionThreadID is the session_thread_id of the call's events and of the
// answers routed to it: the child thread, null on the primary.
func (c *toolCall) sessionThreadID() *string {
	if c.thread.child {
		return &c.thread.id
	}
	return nil
}

// permission is a resolved permission decision and its evaluation object.
type permission struct {
	verdict    string // allow, ask, deny
	evaluation any    // nil is null: refused before any policy applied
	denyText   string
}

// decide evaluates the permission policy of a built-in or MCP tool step.
func (e *engine) decide(th *thread, st script.Op) permission {
	enabled, policy := e.toolPolicy(th, st)
	if !enabled {
		return permission{verdict: "deny", denyText: "Tool `" + st.Name + "` is not enabled for this agent."}
	}
	switch policy {
	case "always_allow":
		return permission{verdict: "allow", evaluation: typeOnly{Type: "always_allow"}}
	case "always_ask":
		return permission{verdict: "ask", evaluation: typeOnly{Type: "always_ask"}}
	}
	// auto: the script's judgement; unscripted it cannot judge
	// (docs/session-events-wire.md 4.4 and 11, choice 20): ask,
	// indeterminate.
	verdict := st.Verdict
	if verdict == "" {
		verdict = "ask"
	}
	inner := autoVerdictJSON{Type: verdict}
	p := permission{verdict: verdict}
	switch verdict {
	case "ask":
		inner.ReasonCode = "indeterminate"
	case "deny":
		inner.ReasonCode = "high_risk"
		p.denyText = textAutoDenied
	}
	p.evaluation = autoEvaluationJSON{Type: "auto", EvaluatedPermission: inner}
	return p
}

// toolPolicy resolves whether the step's tool is enabled for th's agent and
// its policy.
func (e *engine) toolPolicy(th *thread, st script.Op) (bool, string) {
	for _, t := range e.agentOf(th).Tools.Tools {
		switch {
		case st.Kind == script.KindUseTool && t.Toolset != nil:
			if !slices.Contains(agents.ToolsetTools, st.Name) {
				return false, ""
			}
			for _, c := range t.Toolset.Configs {
				if c.Name == st.Name {
					return c.Enabled, c.Policy
				}
			}
			return t.Toolset.Defaults.Enabled, t.Toolset.Defaults.Policy
		case st.Kind == script.KindUseMCPTool && t.MCP != nil && t.MCP.ServerName == st.Server:
			for _, c := range t.MCP.Configs {
				if c.Name == st.Name {
					return c.Enabled, c.Policy
				}
			}
			return t.MCP.Defaults.Enabled, t.MCP.Defaults.Policy
		}
	}
	return false, ""
}

// callTool buffers the tool-use event of a tool step in th's open request
// and makes it the request's call.
func (e *engine) callTool(th *thread, st script.Op) {
	c := &toolCall{id: e.newID(), thread: th, name: st.Name, server: st.Server, output: toolOutput{text: "ok"}}
	if o := st.Output; o != nil {
		c.output = toolOutput{text: o.Text, isError: o.IsError}
	} else if st.Kind == script.KindUseTool && st.Name == "read" {
		c.readPath = readFilePath(st.Raw)
	}
	var typ string
	var fields any
	switch st.Kind {
	case script.KindUseCustomTool:
		c.kind, c.state = toolCustom, callAwaitingResult
		typ = "agent.custom_tool_use"
		fields = customToolUseJSON{Name: st.Name, Input: st.Raw, SessionThreadID: c.sessionThreadID()}
	default:
		p := e.decide(th, st)
		c.kind = toolBuiltin
		if st.Kind == script.KindUseMCPTool {
			c.kind = toolMCP
		}
		c.sandbox = c.kind == toolBuiltin && e.selfHosted && slices.Contains(sandboxTools, st.Name)
		switch p.verdict {
		case "allow":
			c.state = callReady
			if c.sandbox {
				c.state = callAwaitingResult
			}
		case "ask":
			c.state = callAwaitingConfirmation
		default:
			c.state, c.deny, c.denyText = callReady, true, p.denyText
		}
		if c.kind == toolMCP {
			typ = "agent.mcp_tool_use"
			fields = mcpToolUseJSON{Name: st.Name, MCPServerName: st.Server, Input: st.Raw,
				EvaluatedPermission: p.verdict, Evaluation: p.evaluation, SessionThreadID: c.sessionThreadID()}
		} else {
			typ = "agent.tool_use"
			fields = toolUseJSON{Name: st.Name, Input: st.Raw, EvaluatedPermission: p.verdict,
				Evaluation: p.evaluation, SessionThreadID: c.sessionThreadID()}
		}
	}
	r := th.turn.req
	r.call = c
	r.buffered = append(r.buffered, pendingEvent{id: c.id, typ: typ, tail: tailOf(mustJSON(fields)), call: c})
}

// confirm applies a user.tool_confirmation to an ask call.
func (e *engine) confirm(c *toolCall, allow bool, denyMessage *string) {
	if allow {
		c.state = callReady
		if c.sandbox {
			c.state = callAwaitingResult // the client runs it next
		}
		return
	}
	c.state, c.deny, c.denyText = callReady, true, textUserDenied
	if denyMessage != nil && *denyMessage != "" {
		c.denyText = *denyMessage
	}
}

// answer applies a user.custom_tool_result or user.tool_result: the
// client's answer is the record; no agent.tool_result follows.
func (e *engine) answer(c *toolCall, content []textBlock) {
	c.state = callClosed
	c.resultText = textOf(content)
}

// deliver returns a decided call's result to the model: the server runs an
// allowed call and records its result, or records the error result of a
// refused one. Client-answered calls have nothing to deliver.
func (e *engine) deliver(th *thread, c *toolCall) {
	if c.state != callReady {
		return
	}
	c.state = callClosed
	if c.deny {
		e.recordResult(th, c, []textBlock{{Type: "text", Text: c.denyText}}, true)
		return
	}
	if c.kind == toolBuiltin && c.name == "web_search" {
		e.x.usage.webSearchRequests++ // web_fetch is not metered (docs/session-events-wire.md 8.1)
		e.refreshUsage()
	}
	if c.kind == toolMCP && !e.mcpAuthenticated(th, c) {
		e.failMCPAuthentication(th, c)
		return
	}
	if c.readPath != "" {
		c.output = e.readMounted(c.readPath, c.output)
	}
	content := []textBlock{}
	if c.output.text != "" {
		content = textContent(c.output.text)
	}
	e.toolSpan(th, c)
	e.recordResult(th, c, content, c.output.isError)
}

// mcpAuthenticated reports whether the engine may call c's MCP server
// (docs/vaults-wire.md 6): always for a session without vaults, whose
// servers are taken as public; else when a credential of the session's
// vaults matches the url of the agent's server of that name.
func (e *engine) mcpAuthenticated(th *thread, c *toolCall) bool {
	if len(e.x.vaultIDs) == 0 {
		return true
	}
	url, ok := e.agentOf(th).Tools.MCPServerURL(c.server)
	if !ok || e.s.deps.MCPCredentialLocked == nil {
		return false
	}
	_, ok = e.s.deps.MCPCredentialLocked(e.x.workspaceID, e.x.vaultIDs, url)
	return ok
}

// failMCPAuthentication answers c as the platform answers a call its MCP
// server refused for want of a credential (docs/vaults-wire.md 6): an
// error result, then a retrying session.error naming the server, and the
// session is rescheduled; the turn goes on with its next step.
func (e *engine) failMCPAuthentication(th *thread, c *toolCall) {
	e.recordResult(th, c, textContent("Authentication to MCP server `"+c.server+"` failed."), true)
	const typ = "mcp_authentication_failed_error"
	th.span.sessionError(typ, "retrying")
	e.emit("session.error", sessionErrorJSON{Error: sessionErrorDetail{Type: typ,
		Message:       "No credential in the session's vaults matches MCP server `" + c.server + "`.",
		MCPServerName: c.server, RetryStatus: typeOnly{Type: "retrying"}}})
	e.reschedule()
}

// closeCall closes a call an interrupt leaves unfinished
// (docs/session-events-wire.md 6.5):
// calls the server runs get an error result (their deny text when already
// refused); client-run calls simply stop being pending.
func (e *engine) closeCall(th *thread, c *toolCall) {
	if c.state == callClosed {
		return
	}
	serverRun := c.kind != toolCustom && !c.sandbox
	deny, text := c.deny, c.denyText
	c.state = callClosed
	switch {
	case deny:
		e.recordResult(th, c, []textBlock{{Type: "text", Text: text}}, true)
	case serverRun:
		e.recordResult(th, c, []textBlock{{Type: "text", Text: textInterrupted}}, true)
	}
}

func (e *engine) recordResult(th *thread, c *toolCall, content []textBlock, isError bool) {
	if c.kind == toolMCP {
		e.emitOn(th, "agent.mcp_tool_result", mcpToolResultJSON{MCPToolUseID: c.id, Content: content, IsError: isError})
		return
	}
	e.emitOn(th, "agent.tool_result", toolResultJSON{ToolUseID: c.id, Content: content, IsError: isError})
}

type toolUseJSON struct {
	Name                string          `json:"name"`
	Input               json.RawMessage `json:"input"`
	EvaluatedPermission string          `json:"evaluated_permission"`
	Evaluation          any             `json:"evaluation"`
	SessionThreadID     *string         `json:"session_thread_id"`
}

type mcpToolUseJSON struct {
	Name                string          `json:"name"`
	MCPServerName       string          `json:"mcp_server_name"`
	Input               json.RawMessage `json:"input"`
	EvaluatedPermission string          `json:"evaluated_permission"`
	Evaluation          any             `json:"evaluation"`
	SessionThreadID     *string         `json:"session_thread_id"`
}

type customToolUseJSON struct {
	Name            string          `json:"name"`
	Input           json.RawMessage `json:"input"`
	SessionThreadID *string         `json:"session_thread_id"`
}

type autoEvaluationJSON struct {
	Type                string          `json:"type"`
	EvaluatedPermission autoVerdictJSON `json:"evaluated_permission"`
}

// autoVerdictJSON is {"type": "allow"}, or ask/deny with a reason_code.
type autoVerdictJSON struct {
	Type       string `json:"type"`
	ReasonCode string `json:"reason_code,omitempty"`
}

type toolResultJSON struct {
	ToolUseID string      `json:"tool_use_id"`
	Content   []textBlock `json:"content"`
	IsError   bool        `json:"is_error"`
}

type mcpToolResultJSON struct {
	MCPToolUseID string      `json:"mcp_tool_use_id"`
	Content      []textBlock `json:"content"`
	IsError      bool        `json:"is_error"`
}
