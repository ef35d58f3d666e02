package refserver_test

import (
	"encoding/json"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// When sessions queue and stop work (docs/environment-work-wire.md "When
// work is queued").

// toolSession creates a session of an agent whose toolset is allowed, in
// the self-hosted environment, with one turn that calls bash.
func (f workFixture) toolSession(t *testing.T) string {
	t.Helper()
	agent := f.createAgentJSON(t, `{"name":"w","model":"vendor-haiku-5-5","tools":[
		{"type":"agent_toolset_20260401","default_config":{"permission_policy":{"type":"always_allow"}}}]}`)["id"].(string)
	sid := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+agent+`","environment_id":"`+f.shID+`"}`))["id"].(string)
	must(t, f.srv.ScriptSession(sid, []rs.Step{rs.UseTool("bash", map[string]any{"command": "ls"}), rs.Say("done")}))
	return sid
}

// liveItems lists the session's items that are not stopped.
func (f workFixture) liveItems(t *testing.T, sid string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, it := range f.items(t) {
		if it["data"].(map[string]any)["id"] == sid && it["state"] != "stopped" {
			out = append(out, it)
		}
	}
	return out
}

func TestWorkRequeuedWhileSandboxCallWaits(t *testing.T) {
	f := newWorkFixture(t)
	sid := f.toolSession(t)
	first := f.liveItems(t, sid)
	if len(first) != 1 {
		t.Fatalf("items of a new session %v", first)
	}
	// Stopped before any call waits: nothing is queued again.
	wantOK(t, f.asWorker(t, "POST", f.workPath("/"+first[0]["id"].(string)+"/stop"), ""))
	if live := f.liveItems(t, sid); len(live) != 0 {
		t.Fatalf("after stop with no call waiting %v", live)
	}

	// The bash call waits for its result: one item is queued for it.
	wantOK(t, f.asWorker(t, "POST", eventsPath(sid), `{"events":[`+msgEvent("go")+`]}`))
	live := f.liveItems(t, sid)
	if len(live) != 1 {
		t.Fatalf("items while bash waits %v", live)
	}
	second := live[0]["id"].(string)
	// Its worker stops it with the call still waiting: queued again.
	f.pollNow(t, "")
	f.ack(t, second)
	wantOK(t, f.asWorker(t, "POST", f.workPath("/"+second+"/stop"), `{"force":true}`))
	live = f.liveItems(t, sid)
	if len(live) != 1 || live[0]["id"] == second || live[0]["state"] != "queued" {
		t.Fatalf("items after the stop %v", live)
	}
	third := live[0]["id"].(string)

	// The worker answers the call; stopping then queues nothing.
	var toolUse string
	for _, raw := range f.srv.SessionEventsForTest(sid) {
		var ev map[string]any
		must(t, json.Unmarshal(raw, &ev))
		if ev["type"] == "agent.tool_use" {
			toolUse = ev["id"].(string)
		}
	}
	wantOK(t, f.asWorker(t, "POST", eventsPath(sid),
		`{"events":[{"type":"user.tool_result","tool_use_id":"`+toolUse+`","content":[{"type":"text","text":"a"}]}]}`))
	wantOK(t, f.asWorker(t, "POST", f.workPath("/"+third+"/stop"), ""))
	if live := f.liveItems(t, sid); len(live) != 0 {
		t.Fatalf("items after the call was answered %v", live)
	}
}

func TestWorkSessionEnd(t *testing.T) {
	f := newWorkFixture(t)

	// Archive: a queued item stops.
	queued := f.newSession(t)
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+queued+"/archive", ""))
	if live := f.liveItems(t, queued); len(live) != 0 {
		t.Fatalf("archived session's items %v", live)
	}

	// Delete: a claimed item goes to stopping.
	claimed := f.newSession(t)
	id, token := f.claim(t)
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+claimed, ""))
	if it := f.item(t, id); it["state"] != "stopping" || it["stop_requested_at"] == nil {
		t.Fatalf("deleted session's item %v", it)
	}
	if hb := wantOK(t, f.beat(t, id, token, "")); hb["lease_extended"] != false || hb["state"] != "stopping" {
		t.Fatalf("heartbeat %v", hb)
	}

	// Terminate: the same; and the worker's stop queues nothing new.
	term := f.newSession(t)
	id2, _ := f.claim(t)
	f.terminate(t, term)
	if it := f.item(t, id2); it["state"] != "stopping" {
		t.Fatalf("terminated session's item %v", it)
	}
	wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id2+"/stop"), `{"force":true}`))
	if live := f.liveItems(t, term); len(live) != 0 {
		t.Fatalf("terminated session's items %v", live)
	}

	// A cloud environment's sessions queue nothing.
	wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+f.envID+`"}`))
	if st := f.stats(t); st["depth"] != 0.0 || st["pending"] != 0.0 {
		t.Fatalf("stats %v", st)
	}
}
