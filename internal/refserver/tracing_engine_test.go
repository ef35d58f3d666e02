package refserver_test

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The engine's spans (docs/tracing.md): vendor.session.turn under the request that
// starts it, vendor.model_request and tool spans under the turn.

// describedAgent has a description and a system prompt.
const describedAgent = `,"description":"Answers briefly.","system":"Be brief."`

func TestTraceTurn(t *testing.T) {
	f, exp := tracedEvFixture(t)
	agent := f.agentWith(t, "helper", sonnet, describedAgent)
	exp.Reset()
	r := f.ma(t, "POST", sessionsPath, `{"agent":"`+agent+`","environment_id":"`+f.envID+`"}`)
	sid := wantOK(t, r)["id"].(string)
	create := onlySpan(t, exp.GetSpans(), "vendor.sessions.create")
	wantSpan(t, create, trace.SpanKindServer, codes.Ok)
	wantAttrs(t, create, map[attribute.Key]any{attr.SessionID: sid, attr.GenAIAgentID: agent, attr.GenAIAgentName: "helper",
		attr.GenAIRequestModel: sonnet, attr.SessionEnvironmentID: f.envID, attr.HTTPRoute: sessionsPath,
		attr.HTTPResponseStatus: 200, attr.RequestID: r.header.Get("request-id")})
	wantNoAttrs(t, create, attr.GenAIConversationID)
	if len(exp.GetSpans()) != 1 {
		t.Fatalf("a session without initial events started a turn: %v", spanNames(exp.GetSpans()))
	}

	exp.Reset()
	sent := f.send(t, sid, msgEvent("hello"))
	wantOK(t, sent)
	spans := exp.GetSpans()
	send := onlySpan(t, spans, "vendor.sessions.events.send")
	wantSpan(t, send, trace.SpanKindServer, codes.Ok)
	wantAttrs(t, send, map[attribute.Key]any{attr.SessionID: sid, attr.HTTPRoute: "/v1/sessions/{session_id}/events",
		attr.URLPath: eventsPath(sid), attr.RequestID: sent.header.Get("request-id")})
	wantNoAttrs(t, send, attr.GenAIConversationID, attr.GenAIAgentID)

	turn := onlySpan(t, spans, "vendor.session.turn")
	wantSpan(t, turn, trace.SpanKindInternal, codes.Ok)
	wantParent(t, turn, send)
	wantExactAttrs(t, turn, map[attribute.Key]any{
		attr.GenAIProviderName:     "vendor",
		attr.GenAIOperationName:    "invoke_agent",
		attr.GenAIAgentID:          agent,
		attr.GenAIAgentName:        "helper",
		attr.GenAIAgentDescription: "Answers briefly.",
		attr.GenAIRequestModel:     sonnet,
		attr.SessionTurnStopReason: "end_turn",
		attr.SessionID:             sid,
		attr.GenAIConversationID:   f.srv.PrimaryThreadForTest(sid),
	})
	mr := onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Ok)
	wantParent(t, mr, turn)
	wantExactAttrs(t, mr, map[attribute.Key]any{
		attr.GenAIProviderName:  "vendor",
		attr.GenAIOperationName: "chat",
		attr.GenAIRequestModel:  sonnet,
		attr.UsageInputTokens:   1000,
		attr.UsageOutputTokens:  100,
		attr.UsageCacheWrite:    0,
		attr.UsageCacheRead:     0,
	})
	if len(spans) != 3 {
		t.Fatalf("spans %v", spanNames(spans))
	}
}

// Create Session parents the turn its initial events start.
func TestTraceTurnFromInitialEvents(t *testing.T) {
	f, exp := tracedEvFixture(t)
	f.ma(t, "POST", sessionsPath, f.sessionBody(`,"initial_events":[`+msgEvent("hi")+`]`), withTraceparent)
	spans := exp.GetSpans()
	create := onlySpan(t, spans, "vendor.sessions.create")
	turn := onlySpan(t, spans, "vendor.session.turn")
	wantParent(t, turn, create)
	if turn.SpanContext.TraceID().String() != inTraceID {
		t.Fatalf("trace %v", turn.SpanContext.TraceID())
	}
	wantParent(t, onlySpan(t, spans, "vendor.model_request"), turn)
}

func TestTraceTurnStatuses(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.sessionOf(t, f.agent, "")
	turnOf := func(spans tracetest.SpanStubs) tracetest.SpanStub {
		t.Helper()
		return onlySpan(t, spans, "vendor.session.turn")
	}

	// A session.error that ends the turn: ERROR with its type, on the
	// turn and on the failed request.
	f.script(t, sid, []rs.Step{rs.Fail("model_overloaded_error", "busy")})
	exp.Reset()
	f.post(t, sid, msgEvent("one"))
	spans := exp.GetSpans()
	turn := turnOf(spans)
	wantSpan(t, turn, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, turn, map[attribute.Key]any{attr.ErrorType: "model_overloaded_error", attr.SessionTurnStopReason: "retries_exhausted"})
	mr := onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, mr, map[attribute.Key]any{attr.ErrorType: "model_overloaded_error", attr.UsageInputTokens: 1000, attr.UsageOutputTokens: 0})
	// The request succeeded: the turn's error is not the request's.
	wantSpan(t, onlySpan(t, spans, "vendor.sessions.events.send"), trace.SpanKindServer, codes.Ok)

	// A retried error does not fail the turn; its request fails.
	f.script(t, sid, []rs.Step{rs.Reschedule("model_rate_limited_error", ""), rs.Say("retried")})
	exp.Reset()
	f.post(t, sid, msgEvent("two"))
	spans = exp.GetSpans()
	turn = turnOf(spans)
	wantSpan(t, turn, trace.SpanKindInternal, codes.Ok)
	wantNoAttrs(t, turn, attr.ErrorType)
	reqs := spansNamed(spans, "vendor.model_request")
	if len(reqs) != 2 || reqs[0].Status.Code != codes.Error || reqs[1].Status.Code != codes.Ok {
		t.Fatalf("requests %v", reqs)
	}
	wantAttrs(t, reqs[0], map[attribute.Key]any{attr.ErrorType: "model_rate_limited_error"})

	// Interrupted: unset, on the turn and on the request cut short.
	f.script(t, sid, []rs.Step{rs.Say("working"), rs.Hold(), rs.Say("never")})
	exp.Reset()
	f.post(t, sid, msgEvent("three"))
	if n := len(spansNamed(exp.GetSpans(), "vendor.session.turn")); n != 0 {
		t.Fatal("a held turn ended")
	}
	f.post(t, sid, interruptAll)
	spans = exp.GetSpans()
	turn = turnOf(spans)
	wantSpan(t, turn, trace.SpanKindInternal, codes.Unset)
	wantNoAttrs(t, turn, attr.ErrorType)
	mr = onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Unset)
	wantParent(t, mr, turn)
	wantParent(t, turn, spansNamed(spans, "vendor.sessions.events.send")[0]) // the request that started it

	// A terminal error: ERROR, no stop reason.
	f.script(t, sid, []rs.Step{rs.Terminate("billing_error", "")})
	exp.Reset()
	f.post(t, sid, msgEvent("four"))
	turn = turnOf(exp.GetSpans())
	wantSpan(t, turn, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, turn, map[attribute.Key]any{attr.ErrorType: "billing_error"})
	wantNoAttrs(t, turn, attr.SessionTurnStopReason)
}

// A pause at the budget ends the turn's span; the Update Session that
// raises or removes the budget parents the resumed turn.
func TestTraceBudgetResumeParent(t *testing.T) {
	for _, update := range []string{`{"budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}}`, `{"budget":null}`} {
		f, exp := tracedEvFixture(t)
		sid := f.budgetSession(t, rs.UseTool("read", nil, rs.Tokens(1000, 1000)))
		f.post(t, sid, msgEvent("go"))
		spans := exp.GetSpans()
		send := onlySpan(t, spans, "vendor.sessions.events.send")
		paused := onlySpan(t, spans, "vendor.session.turn")
		wantSpan(t, paused, trace.SpanKindInternal, codes.Ok)
		wantParent(t, paused, send)
		wantAttrs(t, paused, map[attribute.Key]any{attr.SessionTurnStopReason: "budget_reached"})
		wantParent(t, onlySpan(t, spans, "vendor.tool_use read"), paused)

		exp.Reset()
		wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid, update, withTraceparent))
		spans = exp.GetSpans()
		upd := onlySpan(t, spans, "vendor.sessions.update")
		wantAttrs(t, upd, map[attribute.Key]any{attr.SessionID: sid})
		resumed := onlySpan(t, spans, "vendor.session.turn")
		wantSpan(t, resumed, trace.SpanKindInternal, codes.Ok)
		wantParent(t, resumed, upd)
		wantAttrs(t, resumed, map[attribute.Key]any{attr.SessionTurnStopReason: "end_turn", attr.GenAIAgentName: "spender"})
		wantParent(t, onlySpan(t, spans, "vendor.model_request"), resumed)

		// An update that resumes nothing parents nothing.
		exp.Reset()
		wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"title":"t"}`))
		if spans := exp.GetSpans(); len(spans) != 1 {
			t.Fatalf("spans %v", spanNames(spans))
		}
	}
}

// The tools the server runs get spans under the turn; the client's do not.
func TestTraceEngineToolSpans(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{
		rs.UseTool("read", map[string]any{"file_path": "/a"}),
		rs.UseTool("web_fetch", nil, rs.ToolOutput("404", true)),
		rs.UseMCPTool("example-mcp", "search", nil),
		rs.UseCustomTool("lookup_order", nil),
		rs.Say("done"),
	})
	f.post(t, sid, msgEvent("go"))
	mcp := ofType(f.log(t, sid), "agent.mcp_tool_use")[0]["id"].(string)
	f.post(t, sid, confirmation(mcp, "allow"))
	custom := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	f.post(t, sid, customResult(custom, "ok"))
	spans := exp.GetSpans()
	// Three stays in running: until the MCP call waits for its
	// confirmation, until the custom tool waits for its result, to the end.
	turns := spansNamed(spans, "vendor.session.turn")
	if len(turns) != 3 {
		t.Fatalf("turns %v", spanNames(spans))
	}
	turn := turns[0]
	read := onlySpan(t, spans, "vendor.tool_use read")
	wantSpan(t, read, trace.SpanKindInternal, codes.Ok)
	wantParent(t, read, turn)
	use := ofType(f.log(t, sid), "agent.tool_use")
	wantExactAttrs(t, read, map[attribute.Key]any{attr.GenAIProviderName: "vendor", attr.GenAIOperationName: "execute_tool",
		attr.GenAIToolName: "read", attr.GenAIToolCallID: use[0]["id"].(string), attr.GenAIToolType: "extension"})
	fetch := onlySpan(t, spans, "vendor.tool_use web_fetch")
	wantSpan(t, fetch, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, fetch, map[attribute.Key]any{attr.ErrorType: "tool_error"})
	search := onlySpan(t, spans, "vendor.mcp_tool_use search")
	wantSpan(t, search, trace.SpanKindInternal, codes.Ok)
	wantParent(t, search, turns[1])
	wantAttrs(t, search, map[attribute.Key]any{attr.GenAIToolName: "search", attr.GenAIToolCallID: mcp})
	for _, s := range spans {
		if s.Name == "vendor.custom_tool_use lookup_order" || s.Name == "vendor.tool_use lookup_order" {
			t.Fatalf("a span for a client tool: %s", s.Name)
		}
	}
	if n := len(spansNamed(spans, "vendor.model_request")); n != 5 {
		t.Fatalf("%d model requests", n)
	}
}

// Child threads: their turns are under the coordinator's; a request naming
// a thread carries gen_ai.conversation.id; the advisor has its own name.
func TestTraceChildThreads(t *testing.T) {
	f, exp := tracedEvFixture(t)
	worker := f.agentWith(t, "reviewer", haiku, `,"description":"Reviews.","tools":[{"type":"custom","name":"check","description":"c","input_schema":{"type":"object"}}]`)
	lead := f.agentWith(t, "lead", sonnet, `,"multiagent":{"type":"coordinator","agents":["`+worker+`",{"type":"advisor","model":"`+opus+`"}]}`)
	sid := f.sessionOf(t, lead, "")
	f.script(t, sid, []rs.Step{rs.Say("delegating"), rs.Spawn("reviewer", rs.UseCustomTool("check", nil), rs.Say("LGTM")),
		rs.Spawn("vendor.advisor", rs.Say("advice")), rs.Say("done")})
	exp.Reset()
	f.post(t, sid, msgEvent("review"))
	spans := exp.GetSpans()
	send := onlySpan(t, spans, "vendor.sessions.events.send")
	turns := spansNamed(spans, "vendor.session.turn")
	if len(turns) != 3 {
		t.Fatalf("turns %v", spanNames(spans))
	}
	waiting, advisor, lead1 := turns[0], turns[1], turns[2]
	wantParent(t, lead1, send)
	wantParent(t, advisor, lead1)
	wantParent(t, waiting, lead1)
	wantAttrs(t, waiting, map[attribute.Key]any{attr.GenAIAgentName: "reviewer", attr.SessionTurnStopReason: "requires_action"})
	wantAttrs(t, advisor, map[attribute.Key]any{attr.GenAIAgentName: "vendor.advisor", attr.GenAIRequestModel: opus,
		attr.SessionTurnStopReason: "end_turn"})
	wantNoAttrs(t, advisor, attr.GenAIAgentID, attr.GenAIAgentDescription)
	wantAttrs(t, lead1, map[attribute.Key]any{attr.GenAIAgentName: "lead", attr.GenAIAgentID: lead})

	// The reviewer waits on its custom tool; the answer names its thread.
	use := ofType(f.log(t, sid), "agent.custom_tool_use")[0]
	child := use["session_thread_id"].(string)
	exp.Reset()
	f.post(t, sid, customResult(use["id"].(string), "fine"))
	spans = exp.GetSpans()
	send2 := onlySpan(t, spans, "vendor.sessions.events.send")
	wantAttrs(t, send2, map[attribute.Key]any{attr.GenAIConversationID: child})
	turns = spansNamed(spans, "vendor.session.turn")
	if len(turns) != 2 {
		t.Fatalf("turns %v", spanNames(spans))
	}
	reviewer := turns[0]
	wantParent(t, reviewer, send2) // the request that carried its answer
	wantParent(t, turns[1], send2) // the coordinator's turn for the report
	wantAttrs(t, reviewer, map[attribute.Key]any{attr.GenAIAgentName: "reviewer", attr.GenAIAgentID: worker,
		attr.GenAIAgentDescription: "Reviews.", attr.GenAIRequestModel: haiku, attr.GenAIConversationID: child})

	// An interrupt of one thread names it.
	exp.Reset()
	f.post(t, sid, `{"type":"user.interrupt","session_thread_id":"`+child+`"}`)
	wantAttrs(t, onlySpan(t, exp.GetSpans(), "vendor.sessions.events.send"), map[attribute.Key]any{attr.GenAIConversationID: child})
}

// A turn left waiting has no open span (its stay ended when it went
// idle): archiving its session ends none. Archiving a held turn
// interrupts it: unset.
func TestTraceTurnAbandoned(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{rs.UseCustomTool("lookup_order", nil)})
	f.post(t, sid, msgEvent("go"))
	exp.Reset()
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/archive", ""))
	if spans := exp.GetSpans(); len(spansNamed(spans, "vendor.session.turn")) != 0 {
		t.Fatalf("spans %v", spanNames(spans))
	}

	sid = f.sessionOf(t, f.agent, "")
	f.script(t, sid, []rs.Step{rs.Hold()})
	f.post(t, sid, msgEvent("go"))
	exp.Reset()
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/archive", ""))
	turn := onlySpan(t, exp.GetSpans(), "vendor.session.turn")
	wantSpan(t, turn, trace.SpanKindInternal, codes.Unset)
}

func TestTraceTurnContent(t *testing.T) {
	// Off by default.
	f, exp := tracedEvFixture(t)
	sid := f.sessionOf(t, f.agentWith(t, "tools", sonnet, describedAgent+toolsAgent), "")
	f.script(t, sid, []rs.Step{rs.Say("hi")})
	f.post(t, sid, msgEvent("hello"))
	wantNoAttrs(t, onlySpan(t, exp.GetSpans(), "vendor.session.turn"), contentKeys...)

	f, exp = tracedEvFixture(t, rs.WithContentCapture(true))
	sid = f.sessionOf(t, f.agentWith(t, "tools", sonnet, describedAgent+toolsAgent), "")
	f.script(t, sid, []rs.Step{rs.Think("hmm"), rs.Say("looking"), rs.UseTool("read", map[string]any{"file_path": "/a"}, rs.ToolOutput("contents", false)),
		rs.UseMCPTool("example-mcp", "search", map[string]any{"q": "x"}), rs.UseCustomTool("lookup_order", nil), rs.Say("done")})
	f.post(t, sid, msgEvent("hello"), `{"type":"system.message","content":[{"type":"text","text":"Be polite."}]}`)
	mcp := ofType(f.log(t, sid), "agent.mcp_tool_use")[0]["id"].(string)
	f.post(t, sid, confirmation(mcp, "allow"))
	custom := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	f.post(t, sid, customResult(custom, "order 7"), `{"type":"user.message","content":[{"type":"text","text":"thanks"}]}`)
	read := ofType(f.log(t, sid), "agent.tool_use")[0]["id"].(string)
	// One span per stay in running: each shows what reached the thread
	// since the previous stay, and what the agent did in this one.
	turns := spansNamed(exp.GetSpans(), "vendor.session.turn")
	if len(turns) != 3 {
		t.Fatalf("spans %v", spanNames(exp.GetSpans()))
	}
	for _, turn := range turns {
		wantContent(t, turn, attr.GenAISystemInstructions, `[{"type":"text","content":"Be brief."}]`)
		wantNoAttrs(t, turn, attr.ContentTruncated)
	}
	wantContent(t, turns[0], attr.GenAIInputMessages, `[`+
		`{"role":"user","parts":[{"type":"text","content":"hello"}]},`+
		`{"role":"system","parts":[{"type":"text","content":"Be polite."}]}]`)
	wantContent(t, turns[0], attr.GenAIOutputMessages, `[`+
		`{"role":"assistant","finish_reason":"tool_call","parts":[{"type":"text","content":"looking"},`+
		`{"type":"tool_call","id":"`+read+`","name":"read","arguments":{"file_path":"/a"}}]},`+
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"`+read+`","response":[{"type":"text","content":"contents"}]}]},`+
		`{"role":"assistant","finish_reason":"tool_call","parts":[{"type":"tool_call","id":"`+mcp+`","name":"search","arguments":{"q":"x"},"vendor_mcp_server_name":"example-mcp"}]}]`)
	// A confirmation is no message: the second stay has no input.
	wantContent(t, turns[1], attr.GenAIInputMessages, `[]`)
	wantContent(t, turns[1], attr.GenAIOutputMessages, `[`+
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"`+mcp+`","response":[{"type":"text","content":"ok"}]}]},`+
		`{"role":"assistant","finish_reason":"tool_call","parts":[{"type":"tool_call","id":"`+custom+`","name":"lookup_order","arguments":{}}]}]`)
	wantContent(t, turns[2], attr.GenAIInputMessages, `[`+
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"`+custom+`","response":[{"type":"text","content":"order 7"}]}]},`+
		`{"role":"user","parts":[{"type":"text","content":"thanks"}]}]`)
	wantContent(t, turns[2], attr.GenAIOutputMessages, `[`+
		`{"role":"assistant","finish_reason":"stop","parts":[{"type":"text","content":"done"}]}]`)
	spans := exp.GetSpans()
	readSpan := onlySpan(t, spans, "vendor.tool_use read")
	wantContent(t, readSpan, attr.GenAIToolCallArguments, `{"file_path":"/a"}`)
	wantContent(t, readSpan, attr.GenAIToolCallResult, `[{"type":"text","content":"contents"}]`)
	mcpSpan := onlySpan(t, spans, "vendor.mcp_tool_use search")
	wantContent(t, mcpSpan, attr.GenAIToolCallArguments, `{"q":"x"}`)
	wantContent(t, mcpSpan, attr.GenAIToolCallResult, `[{"type":"text","content":"ok"}]`)

	// Oversized content is cut inside the structure.
	exp.Reset()
	long := strings.Repeat("ü", 40000)
	f.post(t, sid, msgEvent(long))
	turn := onlySpan(t, exp.GetSpans(), "vendor.session.turn")
	wantAttrs(t, turn, map[attribute.Key]any{attr.ContentTruncated: true})
	in := contentJSON(t, turn, attr.GenAIInputMessages).([]any)
	text, cut := strings.CutSuffix(in[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["content"].(string), "…")
	if len(attrMap(turn)[attr.GenAIInputMessages].AsString()) > 64<<10 || !cut || !strings.HasPrefix(long, text) || len(text) < 60<<10 {
		t.Fatalf("cut input: %d bytes of text", len(text))
	}
	contentJSON(t, turn, attr.GenAIOutputMessages)
}

// A child thread's input is its task; its report is input to the
// coordinator's turn. Thinking is never shown on managed-agent spans.
func TestTraceTurnContentThreads(t *testing.T) {
	f, exp := tracedEvFixture(t, rs.WithContentCapture(true))
	sid := f.coordinatorSession(t)
	f.script(t, sid, []rs.Step{rs.Say("delegating"), rs.Spawn("reviewer", rs.Think("reading"), rs.Say("LGTM")), rs.Say("done")})
	exp.Reset()
	f.post(t, sid, msgEvent("review the diff"))
	turns := spansNamed(exp.GetSpans(), "vendor.session.turn")
	if len(turns) != 2 {
		t.Fatalf("spans %v", spanNames(exp.GetSpans()))
	}
	child, lead := turns[0], turns[1]
	wantContent(t, child, attr.GenAIInputMessages, `[{"role":"user","parts":[{"type":"text","content":"review the diff"}]}]`)
	wantContent(t, child, attr.GenAIOutputMessages, `[{"role":"assistant","finish_reason":"stop","parts":[{"type":"text","content":"LGTM"}]}]`)
	wantNoAttrs(t, child, attr.GenAISystemInstructions)
	wantContent(t, lead, attr.GenAIInputMessages, `[{"role":"user","parts":[{"type":"text","content":"review the diff"}]},`+
		`{"role":"user","parts":[{"type":"text","content":"LGTM"}]}]`)
	wantContent(t, lead, attr.GenAIOutputMessages, `[{"role":"assistant","finish_reason":"stop","parts":[{"type":"text","content":"delegating"}]},`+
		`{"role":"assistant","finish_reason":"stop","parts":[{"type":"text","content":"done"}]}]`)
}
