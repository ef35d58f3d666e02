package refserver_test

import (
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Tool flows (docs/session-events-wire.md 6.4, 4.4–4.7): permission
// policies, confirmations, auto verdicts, MCP and custom tools, and the
// self-hosted user.tool_result.

// toolsAgent has read/web tools allowed, bash asked, write under auto, grep
// disabled, an MCP server whose tools are asked (the MCP default), and a
// custom tool.
const toolsAgent = `,"tools":[
	{"type":"agent_toolset_20260401","default_config":{"permission_policy":{"type":"always_allow"}},
	 "configs":[{"name":"bash","permission_policy":{"type":"always_ask"}},{"name":"write","permission_policy":{"type":"auto"}},
	            {"name":"grep","enabled":false}]},
	{"type":"mcp_toolset","mcp_server_name":"example-mcp"},
	{"type":"custom","name":"lookup_order","description":"Look up.","input_schema":{"type":"object"}}],
	"mcp_servers":[{"type":"url","name":"example-mcp","url":"https://mcp.example.com"}]`

func (f evFixture) toolsSession(t *testing.T, envID string) string {
	t.Helper()
	agent := f.agentWith(t, "tools", "vendor-sonnet-5-5", toolsAgent)
	return wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+agent+`","environment_id":"`+envID+`"}`))["id"].(string)
}

func TestToolAlwaysAllow(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{rs.Say("looking"), rs.UseTool("read", map[string]any{"file_path": "/a"}, rs.ToolOutput("contents", false)), rs.Say("done")})
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.message", "agent.tool_use",
		"span.model_request_end", "agent.tool_result", "span.model_request_start", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle")
	use := events[4]
	requireKeys(t, use, "id", "processed_at", "type", "name", "input", "evaluated_permission", "evaluation", "session_thread_id")
	if use["evaluated_permission"] != "allow" || mustMarshal(use["evaluation"]) != `{"type":"always_allow"}` ||
		mustMarshal(use["input"]) != `{"file_path":"/a"}` || use["session_thread_id"] != nil {
		t.Fatalf("tool use %v", use)
	}
	result := events[6]
	requireKeys(t, result, "id", "processed_at", "type", "tool_use_id", "content", "is_error")
	if result["tool_use_id"] != use["id"] || mustMarshal(result["content"]) != `[{"text":"contents","type":"text"}]` || result["is_error"] != false {
		t.Fatalf("result %v", result)
	}
	// The call was not awaiting anything: answers are 409.
	id := use["id"].(string)
	wantConflict(t, f.send(t, sid, confirmation(id, "allow")), "conflict_error",
		"events[0].tool_use_id: tool use `"+id+"` is not awaiting confirmation")
}

func TestToolConfirmation(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid,
		[]rs.Step{rs.UseTool("bash", map[string]any{"command": "ls"}, rs.ToolOutput("a\nb", false)), rs.Say("listed")},
		[]rs.Step{rs.UseTool("bash", map[string]any{"command": "rm -rf /"}), rs.Say("ok, not doing that")},
		[]rs.Step{rs.UseTool("bash", map[string]any{"command": "x"}), rs.Say("fine")},
	)
	// allow
	f.post(t, sid, msgEvent("list"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.tool_use",
		"span.model_request_end", "session.usage", "session.status_idle")
	id := events[3]["id"].(string)
	if events[3]["evaluated_permission"] != "ask" || mustMarshal(events[3]["evaluation"]) != `{"type":"always_ask"}` ||
		stopReasonOf(events[6]) != `{"event_ids":["`+id+`"],"type":"requires_action"}` {
		t.Fatalf("ask %v / %v", events[3], events[6])
	}
	data := f.post(t, sid, confirmation(id, "allow"))
	requireKeys(t, data[0], "id", "processed_at", "type", "tool_use_id", "result", "deny_message", "session_thread_id")
	if data[0]["deny_message"] != nil || data[0]["session_thread_id"] != nil {
		t.Fatalf("echo %v", data[0])
	}
	events = f.logFrom(t, sid, 7)
	wantTypes(t, events, "user.tool_confirmation", "session.status_running", "agent.tool_result", "span.model_request_start",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	if mustMarshal(events[2]["content"]) != `[{"text":"a\nb","type":"text"}]` || events[2]["is_error"] != false {
		t.Fatalf("result %v", events[2])
	}
	wantConflict(t, f.send(t, sid, confirmation(id, "deny")), "conflict_error",
		"events[0].tool_use_id: tool use `"+id+"` is not awaiting confirmation")

	// deny with a message: an error result carrying it; the turn goes on.
	n := len(f.log(t, sid))
	f.post(t, sid, msgEvent("clean up"))
	id = ofType(f.logFrom(t, sid, n), "agent.tool_use")[0]["id"].(string)
	data = f.post(t, sid, `{"type":"user.tool_confirmation","tool_use_id":"`+id+`","result":"deny","deny_message":"Never."}`)
	if data[0]["deny_message"] != "Never." {
		t.Fatalf("echo %v", data[0])
	}
	events = f.logFrom(t, sid, n+7)
	wantTypes(t, events, "user.tool_confirmation", "session.status_running", "agent.tool_result", "span.model_request_start",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	if mustMarshal(events[2]["content"]) != `[{"text":"Never.","type":"text"}]` || events[2]["is_error"] != true {
		t.Fatalf("deny result %v", events[2])
	}
	// deny without a message: the default text.
	n = len(f.log(t, sid))
	f.post(t, sid, msgEvent("again"))
	id = ofType(f.logFrom(t, sid, n), "agent.tool_use")[0]["id"].(string)
	f.post(t, sid, confirmation(id, "deny"))
	if got := ofType(f.logFrom(t, sid, n), "agent.tool_result"); mustMarshal(got[0]["content"]) != `[{"text":"The user denied this tool call.","type":"text"}]` {
		t.Fatalf("default deny %v", got)
	}
}

func TestToolAutoVerdicts(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	write := map[string]any{"file_path": "/workspace/notes.md", "content": "draft"}
	f.script(t, sid, []rs.Step{
		rs.UseTool("write", write, rs.Verdict("allow")),
		rs.UseTool("write", write, rs.Verdict("deny")),
		rs.UseTool("write", write, rs.Verdict("ask")),
		rs.UseTool("write", write),
		rs.Say("done"),
	})
	f.post(t, sid, msgEvent("write"))
	events := f.log(t, sid)
	uses := ofType(events, "agent.tool_use")
	results := ofType(events, "agent.tool_result")
	if len(uses) != 3 || len(results) != 2 {
		t.Fatalf("events %q", typesOf(events))
	}
	for i, want := range []string{
		`{"evaluated_permission":{"type":"allow"},"type":"auto"}`,
		`{"evaluated_permission":{"reason_code":"high_risk","type":"deny"},"type":"auto"}`,
		`{"evaluated_permission":{"reason_code":"indeterminate","type":"ask"},"type":"auto"}`,
	} {
		if got := mustMarshal(uses[i]["evaluation"]); got != want || uses[i]["evaluated_permission"] != uses[i]["evaluation"].(map[string]any)["evaluated_permission"].(map[string]any)["type"] {
			t.Fatalf("use %d evaluation %s, want %s", i, got, want)
		}
	}
	if results[0]["is_error"] != false || results[1]["is_error"] != true ||
		mustMarshal(results[1]["content"]) != `[{"text":"This tool call was judged high-risk and was not run.","type":"text"}]` {
		t.Fatalf("results %v", results)
	}
	// The ask stops the turn; the deny before it did not.
	if stopReasonOf(last(events)) != `{"event_ids":["`+uses[2]["id"].(string)+`"],"type":"requires_action"}` {
		t.Fatalf("idle %v", last(events))
	}
	// Unscripted, auto judges ask / indeterminate (docs/session-events-wire.md
	// 4.4).
	n := len(events)
	f.post(t, sid, confirmation(uses[2]["id"].(string), "allow"))
	fourth := ofType(f.logFrom(t, sid, n), "agent.tool_use")
	if len(fourth) != 1 || fourth[0]["evaluated_permission"] != "ask" ||
		mustMarshal(fourth[0]["evaluation"]) != `{"evaluated_permission":{"reason_code":"indeterminate","type":"ask"},"type":"auto"}` {
		t.Fatalf("default verdict %v", fourth)
	}
}

func TestToolNotEnabledAndMCP(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{
		rs.UseTool("grep", map[string]any{"pattern": "x"}),
		rs.UseTool("teleport", nil),
		rs.UseMCPTool("other-mcp", "x", nil),
		rs.UseMCPTool("example-mcp", "create_issue", map[string]any{"title": "Flaky"}, rs.ToolOutput("Created issue #88", false)),
		rs.Say("filed"),
	})
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	uses := append(ofType(events, "agent.tool_use"), ofType(events, "agent.mcp_tool_use")...)
	if len(uses) != 4 {
		t.Fatalf("events %q", typesOf(events))
	}
	for i, name := range []string{"grep", "teleport", "x"} {
		if uses[i]["evaluated_permission"] != "deny" || uses[i]["evaluation"] != nil {
			t.Fatalf("not enabled %v", uses[i])
		}
		want := `[{"text":"Tool ` + "`" + name + "`" + ` is not enabled for this agent.","type":"text"}]`
		res := append(ofType(events, "agent.tool_result"), ofType(events, "agent.mcp_tool_result")...)[i]
		if mustMarshal(res["content"]) != want || res["is_error"] != true {
			t.Fatalf("result %v, want %s", res, want)
		}
	}
	mcp := uses[3]
	requireKeys(t, mcp, "id", "processed_at", "type", "name", "mcp_server_name", "input", "evaluated_permission", "evaluation", "session_thread_id")
	if mcp["mcp_server_name"] != "example-mcp" || mcp["evaluated_permission"] != "ask" {
		t.Fatalf("mcp use %v", mcp)
	}
	n := len(events)
	f.post(t, sid, confirmation(mcp["id"].(string), "allow"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.tool_confirmation", "session.status_running", "agent.mcp_tool_result", "span.model_request_start",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	requireKeys(t, events[2], "id", "processed_at", "type", "mcp_tool_use_id", "content", "is_error")
	if events[2]["mcp_tool_use_id"] != mcp["id"] || !strings.Contains(mustMarshal(events[2]["content"]), "Created issue #88") {
		t.Fatalf("mcp result %v", events[2])
	}
}

func TestCustomToolFlow(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{rs.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}), rs.Say("shipped")})
	f.post(t, sid, msgEvent("where?"))
	use := ofType(f.log(t, sid), "agent.custom_tool_use")[0]
	id := use["id"].(string)
	if mustMarshal(use["input"]) != `{"order_id":"1234"}` {
		t.Fatalf("use %v", use)
	}
	// content omitted is [], is_error null is false
	// (docs/session-events-wire.md 3.2).
	data := f.post(t, sid, `{"type":"user.custom_tool_result","custom_tool_use_id":"`+id+`","is_error":null}`)
	if mustMarshal(data[0]["content"]) != `[]` || data[0]["is_error"] != false {
		t.Fatalf("echo %v", data[0])
	}
	// The client's answer is the record: no agent.tool_result.
	if len(ofType(f.log(t, sid), "agent.tool_result")) != 0 || last(f.log(t, sid))["type"] != "session.status_idle" {
		t.Fatalf("log %q", typesOf(f.log(t, sid)))
	}
	wantConflict(t, f.send(t, sid, customResult(id, "again")), "conflict_error",
		"events[0].custom_tool_use_id: custom tool use `"+id+"` is not awaiting a result")
}

func TestSelfHostedToolResult(t *testing.T) {
	f := newEvFixture(t)
	selfHosted := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	sid := f.toolsSession(t, selfHosted)
	f.script(t, sid, []rs.Step{
		rs.UseTool("read", map[string]any{"file_path": "/a"}),       // allowed, run by the client
		rs.UseTool("bash", map[string]any{"command": "ls"}),         // asked, then run by the client
		rs.UseTool("web_fetch", map[string]any{"url": "https://x"}), // still run by the server
		rs.Say("done"),
	})
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	read := ofType(events, "agent.tool_use")[0]
	readID := read["id"].(string)
	if read["evaluated_permission"] != "allow" || stopReasonOf(last(events)) != `{"event_ids":["`+readID+`"],"type":"requires_action"}` {
		t.Fatalf("read %v, idle %v", read, last(events))
	}
	data := f.post(t, sid, `{"type":"user.tool_result","tool_use_id":"`+readID+`","content":[{"type":"text","text":"file"}]}`)
	requireKeys(t, data[0], "id", "processed_at", "type", "tool_use_id", "content", "is_error", "session_thread_id")
	if data[0]["is_error"] != false || data[0]["session_thread_id"] != nil {
		t.Fatalf("echo %v", data[0])
	}
	events = f.log(t, sid)
	bash := ofType(events, "agent.tool_use")[1]
	bashID := bash["id"].(string)
	if len(ofType(events, "agent.tool_result")) != 0 || bash["evaluated_permission"] != "ask" {
		t.Fatalf("log %q", typesOf(events))
	}
	// Still awaiting confirmation: not a result yet.
	wantConflict(t, f.send(t, sid, `{"type":"user.tool_result","tool_use_id":"`+bashID+`"}`), "conflict_error",
		"events[0].tool_use_id: tool use `"+bashID+"` is not awaiting a result")
	// allow: the id stays in event_ids, re-sent in a new idle event.
	n := len(events)
	f.post(t, sid, confirmation(bashID, "allow"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.tool_confirmation", "session.usage", "session.status_idle")
	if stopReasonOf(events[2]) != `{"event_ids":["`+bashID+`"],"type":"requires_action"}` {
		t.Fatalf("idle %v", events[2])
	}
	n += len(events)
	f.post(t, sid, `{"type":"user.tool_result","tool_use_id":"`+bashID+`","content":[{"type":"text","text":"a b"}],"is_error":true}`)
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.tool_result", "session.status_running", "span.model_request_start", "agent.tool_use",
		"span.model_request_end", "agent.tool_result", "span.model_request_start", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle")
	fetchID := events[3]["id"].(string)
	wantInvalid(t, f.send(t, sid, `{"type":"user.tool_result","tool_use_id":"`+fetchID+`"}`),
		"events[0].tool_use_id: no sandbox tool use `"+fetchID+"` in this session")
	wantConflict(t, f.send(t, sid, `{"type":"user.tool_result","tool_use_id":"`+readID+`"}`), "conflict_error",
		"events[0].tool_use_id: tool use `"+readID+"` is not awaiting a result")

	// On a cloud environment user.tool_result is refused outright.
	cloud := f.toolsSession(t, f.envID)
	wantInvalid(t, f.send(t, cloud, `{"type":"user.tool_result","tool_use_id":"`+readID+`"}`),
		"events[0].type: `user.tool_result` is only valid on self_hosted environments")
}

func TestWebSearchIsMetered(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{
		rs.UseTool("web_search", map[string]any{"query": "go"}, rs.Tokens(1, 0)),
		rs.UseTool("web_fetch", map[string]any{"url": "https://go.dev"}, rs.Tokens(1, 0)),
		rs.Say("found", rs.Tokens(1, 0)),
	})
	f.post(t, sid, msgEvent("search"))
	u := f.session(t, sid)["usage"].(map[string]any)
	// 3 tokens at $2/M is 6,000 nUSD; one search is 1 cent.
	if mustMarshal(u["server_tool_use"]) != `{"web_fetch_requests":0,"web_search_requests":1}` ||
		mustMarshal(u["list_cost"]) != `{"amount":"1","currency":"USD"}` {
		t.Fatalf("usage %v", u)
	}
}
