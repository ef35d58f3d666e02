package refserver_test

import (
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Files in sessions (docs/files-wire.md 4): a file resource names an
// existing file of the workspace, and the scripted agent's read tool on
// its mount path returns the file's bytes.

func TestFileResourceMustExist(t *testing.T) {
	f := newEvFixture(t, rs.WithFileDir(t.TempDir()))
	wantError(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"file","file_id":"file_nope"}]`)),
		404, "not_found_error", "resources[0].file_id: file `file_nope` not found")
	sid := f.sessionID(t, "")
	wantError(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/resources", `{"type":"file","file_id":"file_nope"}`),
		404, "not_found_error", "file_id: file `file_nope` not found")

	// Another workspace's file is unknown here; an expired or deleted one too.
	other := f.srv.CreateWorkspace("other")
	must(t, f.srv.GrantAPIAccess(f.seed.UserID, other))
	elsewhere := f.uploadFile(t, "a.txt", "", "x", withWorkspace(other))["id"].(string)
	wantError(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/resources", `{"type":"file","file_id":"`+elsewhere+`"}`),
		404, "not_found_error", "file_id: file `"+elsewhere+"` not found")
	gone := f.uploadFile(t, "a.txt", "", "x")["id"].(string)
	wantOK(t, f.do(t, "DELETE", filesPath+"/"+gone, ""))
	wantError(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"file","file_id":"`+gone+`"}]`)),
		404, "not_found_error", "resources[0].file_id: file `"+gone+"` not found")

	// Deployments check their file resources the same way.
	wantError(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"resources":[{"type":"file","file_id":"file_nope"}]`)),
		404, "not_found_error", "resources[0].file_id: file `file_nope` not found")

	ok := f.uploadFile(t, "a.txt", "", "x")["id"].(string)
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/resources", `{"type":"file","file_id":"`+ok+`"}`))
}

// Upload → attach → the agent reads it.
func TestSessionReadsMountedFile(t *testing.T) {
	f := newEvFixture(t, rs.WithFileDir(t.TempDir()))
	content := "order,status\n1234,shipped\n\xff"
	id := f.uploadFile(t, "orders.csv", "", content)["id"].(string)
	agent := f.agentWith(t, "tools", "vendor-sonnet-5-5", toolsAgent)
	sid := f.sessionOf(t, agent, `,"resources":[{"type":"file","file_id":"`+id+`","mount_path":"/data/orders.csv"},{"type":"file","file_id":"`+
		f.uploadFile(t, "b.txt", "", "other")["id"].(string)+`"}]`)
	f.script(t, sid, []rs.Step{
		rs.UseTool("read", map[string]any{"file_path": "/data/orders.csv"}),
		rs.UseTool("read", map[string]any{"file_path": "/data/missing.csv"}),
		rs.UseTool("read", map[string]any{"file_path": "/data/orders.csv"}, rs.ToolOutput("scripted", false)),
		rs.Say("done"),
	})
	f.post(t, sid, msgEvent("read it"))
	results := ofType(f.log(t, sid), "agent.tool_result")
	if len(results) != 3 {
		t.Fatalf("%d results", len(results))
	}
	want := `[{"text":"order,status\n1234,shipped\n` + "\ufffd" + `","type":"text"}]`
	if got := mustMarshal(results[0]["content"]); got != strings.ReplaceAll(want, "\n", `\n`) || results[0]["is_error"] != false {
		t.Fatalf("read result %s", got)
	}
	if got := mustMarshal(results[1]["content"]); got != `[{"text":"ok","type":"text"}]` {
		t.Fatalf("read of an unmounted path %s", got)
	}
	if got := mustMarshal(results[2]["content"]); got != `[{"text":"scripted","type":"text"}]` {
		t.Fatalf("scripted output %s", got)
	}

	// A file deleted after it was mounted reads as an error.
	wantOK(t, f.do(t, "DELETE", filesPath+"/"+id, ""))
	f.script(t, sid, []rs.Step{rs.UseTool("read", map[string]any{"file_path": "/data/orders.csv"}), rs.Say("done")})
	f.post(t, sid, msgEvent("again"))
	results = ofType(f.log(t, sid), "agent.tool_result")
	if r := results[len(results)-1]; mustMarshal(r["content"]) != `[{"text":"File not found: /data/orders.csv","type":"text"}]` || r["is_error"] != true {
		t.Fatalf("read of a deleted file %v", r)
	}
}

// The read tool returns at most 1 MiB of a file, and says so.
func TestSessionReadsLargeFileTruncated(t *testing.T) {
	f := newEvFixture(t, rs.WithFileDir(t.TempDir()))
	id, err := f.srv.PutFile(f.seed.DefaultWorkspaceID, "big.txt", "", strings.NewReader(strings.Repeat("a", 1<<20+5)))
	must(t, err)
	agent := f.agentWith(t, "tools", "vendor-sonnet-5-5", toolsAgent)
	sid := f.sessionOf(t, agent, `,"resources":[{"type":"file","file_id":"`+id+`"}]`)
	f.script(t, sid, []rs.Step{rs.UseTool("read", map[string]any{"file_path": "/mnt/session/uploads/" + id}), rs.Say("done")})
	f.post(t, sid, msgEvent("read"))
	results := ofType(f.log(t, sid), "agent.tool_result")
	text := results[0]["content"].([]any)[0].(map[string]any)["text"].(string)
	if !strings.HasPrefix(text, strings.Repeat("a", 1<<20)+"\n[truncated: only the first 1048576 bytes are shown]") || len(text) > 1<<20+100 {
		t.Fatalf("result of %d bytes ends %q", len(text), text[max(0, len(text)-80):])
	}
}
