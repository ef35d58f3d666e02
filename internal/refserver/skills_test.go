package refserver_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Skills over raw HTTP (docs/skills-wire.md): the wire shapes, every rule
// of an upload, the download, and how agents and sessions reference skills.

func TestSkillLifecycle(t *testing.T) {
	e := newEnv(t)
	r := e.uploadForm(t, "/v1/skills", []part{
		{name: "display_name", data: []byte("Release notes")},
		skillFile("release-notes/SKILL.md", manifest("release-notes", "Writes release notes.")),
		skillFile("release-notes/scripts/build.py", "print('hi')\n"),
	})
	sk := wantOK(t, r)
	id, v1 := sk["id"].(string), sk["latest_version_id"].(string)
	requireJSON(t, r, `{"type": "skill", "id": "`+id+`", "display_name": "Release notes", "latest_version_id": "`+v1+`",
	  "source": {"type": "custom"}, "created_at": "2026-11-25T21:56:21.123456Z", "updated_at": "2026-11-25T21:56:21.123456Z"}`)
	if !strings.HasPrefix(id, "skill_") || !strings.HasPrefix(v1, "skillver_") {
		t.Fatalf("ids %s %s", id, v1)
	}
	requireJSON(t, e.do(t, "GET", "/v1/skills/"+id+"/versions/latest", ""), `{"type": "skill_version", "id": "`+v1+`", "skill_id": "`+id+`",
	  "name": "release-notes", "description": "Writes release notes.", "created_at": "2026-11-25T21:56:21.123456Z"}`)

	e.clock.Advance(time.Minute)
	r = e.uploadForm(t, "/v1/skills/"+id+"/versions", []part{skillFile("release-notes/SKILL.md", manifest("release-notes", "Writes better notes."))})
	v2 := wantOK(t, r)["id"].(string)
	got := wantOK(t, e.do(t, "GET", "/v1/skills/"+id, ""))
	if got["latest_version_id"] != v2 || got["updated_at"] != "2026-11-25T21:57:21.123456Z" || got["display_name"] != "Release notes" {
		t.Fatalf("after a new version: %v", got)
	}
	var page struct {
		Data []map[string]any `json:"data"`
		Next *string          `json:"next_page"`
	}
	e.do(t, "GET", "/v1/skills/"+id+"/versions?limit=1", "").decode(t, &page)
	if len(page.Data) != 1 || page.Data[0]["id"] != v2 || page.Next == nil {
		t.Fatalf("versions page 1: %+v", page)
	}
	e.do(t, "GET", "/v1/skills/"+id+"/versions?limit=1&page="+*page.Next, "").decode(t, &page)
	if len(page.Data) != 1 || page.Data[0]["id"] != v1 || page.Next != nil {
		t.Fatalf("versions page 2: %+v", page)
	}

	// The download: a zip of the version's files under the skill's name.
	d := e.do(t, "GET", "/v1/skills/"+id+"/versions/"+v1+"/content", "")
	if d.status != http.StatusOK || d.header.Get("Content-Type") != "application/zip" ||
		d.header.Get("Content-Disposition") != `attachment; filename=release-notes.zip` {
		t.Fatalf("download: %d %v", d.status, d.header)
	}
	zr, err := zip.NewReader(bytes.NewReader(d.body), int64(len(d.body)))
	must(t, err)
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "release-notes/SKILL.md release-notes/scripts/build.py" {
		t.Fatalf("archive entries %v", names)
	}
	rc, err := zr.File[1].Open()
	must(t, err)
	content, _ := io.ReadAll(rc)
	if string(content) != "print('hi')\n" {
		t.Fatalf("archived content %q", content)
	}
	wantError(t, e.do(t, "GET", "/v1/skills/"+id+"/versions/latest/content", ""), 404, "not_found_error", "Skill version `latest` not found.")

	// Deleting the latest version makes the previous one latest; the last
	// one cannot go; deleting the skill takes its versions.
	requireJSON(t, e.do(t, "DELETE", "/v1/skills/"+id+"/versions/"+v2, ""), `{"id": "`+v2+`", "type": "skill_version_deleted"}`)
	if got := wantOK(t, e.do(t, "GET", "/v1/skills/"+id, "")); got["latest_version_id"] != v1 {
		t.Fatalf("latest after delete: %v", got)
	}
	wantInvalid(t, e.do(t, "DELETE", "/v1/skills/"+id+"/versions/"+v1, ""), "version: the only version of a skill cannot be deleted; delete the skill")
	requireJSON(t, e.do(t, "DELETE", "/v1/skills/"+id, ""), `{"id": "`+id+`", "type": "skill_deleted"}`)
	wantError(t, e.do(t, "GET", "/v1/skills/"+id, ""), 404, "not_found_error", "Skill `"+id+"` not found.")
	wantError(t, e.do(t, "GET", "/v1/skills/"+id+"/versions/"+v1, ""), 404, "not_found_error", "")
}

func TestSkillListAndWorkspaces(t *testing.T) {
	e := newEnv(t)
	a, _ := e.createSkill(t, "alpha")
	e.clock.Advance(time.Second)
	b, _ := e.createSkill(t, "beta")
	other := e.createWorkspace(t, "other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	wantError(t, e.do(t, "GET", "/v1/skills/"+a, "", withWorkspace(other)), 404, "not_found_error", "Skill `"+a+"` not found.")

	var page struct {
		Data []map[string]any `json:"data"`
	}
	e.do(t, "GET", "/v1/skills", "").decode(t, &page)
	if len(page.Data) != 2 || page.Data[0]["id"] != b || page.Data[1]["id"] != a {
		t.Fatalf("newest first: %+v", page.Data)
	}
	e.do(t, "GET", "/v1/skills?source=vendor", "").decode(t, &page)
	if len(page.Data) != 0 {
		t.Fatalf("no vendor skills: %+v", page.Data)
	}
	e.do(t, "GET", "/v1/skills?source=custom", "", withWorkspace(other)).decode(t, &page)
	if len(page.Data) != 0 {
		t.Fatalf("other workspace: %+v", page.Data)
	}
	wantInvalid(t, e.do(t, "GET", "/v1/skills?source=mine", ""), "source: must be one of `custom`, `vendor`")
	wantInvalid(t, e.do(t, "GET", "/v1/skills?limit=1001", ""), "")
	wantInvalid(t, e.do(t, "GET", "/v1/skills?page=nope", ""), "page: invalid cursor")
}

func TestSkillZipUpload(t *testing.T) {
	e := newEnv(t)
	archive := zipOf(t, [2]string{"zipped/SKILL.md", manifest("zipped", "From an archive.")}, [2]string{"zipped/a.txt", "a"})
	sk := wantOK(t, e.uploadForm(t, "/v1/skills", []part{{name: "files[]", filename: "zipped.zip", data: archive}}))
	v := wantOK(t, e.do(t, "GET", "/v1/skills/"+sk["id"].(string)+"/versions/latest", ""))
	if v["name"] != "zipped" || sk["display_name"] != "zipped" {
		t.Fatalf("zip upload: %v %v", sk, v)
	}
	// The same archive by its content type.
	wantOK(t, e.uploadForm(t, "/v1/skills", []part{{name: "files[]", filename: "upload", contentType: "application/zip", data: archive}}))
}

func TestSkillUploadIdempotent(t *testing.T) {
	e := newEnv(t)
	parts := []part{skillFile("same/SKILL.md", manifest("same", "Once."))}
	key := withHeader("Idempotency-Key", "k1")
	first := wantOK(t, e.uploadForm(t, "/v1/skills", parts, key))
	again := wantOK(t, e.uploadForm(t, "/v1/skills", parts, key)) // another boundary
	if first["id"] != again["id"] {
		t.Fatalf("replay created %v", again["id"])
	}
	r := e.uploadForm(t, "/v1/skills", []part{skillFile("same/SKILL.md", manifest("same", "Twice."))}, key)
	if r.status != http.StatusBadRequest && r.status != http.StatusConflict {
		t.Fatalf("same key, other files: %d %s", r.status, r.body)
	}
	var page struct{ Data []any }
	e.do(t, "GET", "/v1/skills", "").decode(t, &page)
	if len(page.Data) != 1 {
		t.Fatalf("%d skills", len(page.Data))
	}
}

func TestSkillUploadRules(t *testing.T) {
	e := newEnv(t)
	ok := skillFile("s/SKILL.md", manifest("s", "d"))
	md := func(content string) []part { return []part{skillFile("s/SKILL.md", content)} }
	big := strings.Repeat("x", 8<<20)
	cases := []struct {
		name   string
		parts  []part
		status int
		msg    string
	}{
		{"no files", []part{{name: "display_name", data: []byte("x")}}, 400, "files: is required"},
		{"plain files part", []part{{name: "files", filename: "s/SKILL.md", data: []byte("x")}}, 400, "files: unknown field"},
		{"display_name twice", []part{{name: "display_name", data: []byte("a")}, {name: "display_name", data: []byte("b")}, ok}, 400, "display_name: must appear once"},
		{"display_name empty", []part{{name: "display_name"}, ok}, 400, "display_name: must be between 1 and 255 characters"},
		{"display_name 256", []part{{name: "display_name", data: []byte(strings.Repeat("é", 256))}, ok}, 400, "display_name: must be between 1 and 255 characters"},
		{"display_name two lines", []part{{name: "display_name", data: []byte("a\nb")}, ok}, 400, "display_name: must be a single line"},
		{"absolute path", []part{skillFile("/s/SKILL.md", "x")}, 400, "files[0]: `/s/SKILL.md` is not a relative path"},
		{"dot dot", []part{ok, skillFile("s/../x", "x")}, 400, "files[1]: `s/../x` is not a relative path"},
		{"backslash", []part{skillFile(`s\SKILL.md`, "x")}, 400, "files[0]: `s\\SKILL.md` is not a relative path"},
		{"duplicate", []part{ok, ok}, 400, "files[1]: duplicate path `s/SKILL.md`"},
		{"two top directories", []part{ok, skillFile("t/x", "x")}, 400, "files: every file must be in the same top-level directory"},
		{"no directory", []part{skillFile("SKILL.md", "x")}, 400, "files: every file must be in the same top-level directory"},
		{"no manifest", []part{skillFile("s/README.md", "x")}, 400, "files: `s/SKILL.md` is required"},
		{"nested manifest only", []part{skillFile("s/sub/SKILL.md", "x")}, 400, "files: `s/SKILL.md` is required"},
		{"too large", []part{ok, skillFile("s/big", big)}, 413, "files: the skill's files must total at most 8388608 bytes"},
		{"not a zip", []part{{name: "files[]", filename: "s.zip", data: []byte("nope")}}, 400, "files[0]: `s.zip` is not a zip archive"},
		{"zip with others", []part{ok, {name: "files[]", filename: "s.zip", data: zipOf(t)}}, 400, "files: a zip archive must be the only file"},
		{"no front matter", md("# hi\n"), 400, "SKILL.md: must start with YAML front matter between `---` lines: the first line is not `---`"},
		{"unclosed", md("---\nname: s\n"), 400, "SKILL.md: must start with YAML front matter between `---` lines: no closing `---` line"},
		{"not a mapping", md("---\n- a\n---\n"), 400, "SKILL.md: must start with YAML front matter between `---` lines: the front matter is not a mapping"},
		{"name not a string", md("---\nname: 12\ndescription: d\n---\n"), 400, "SKILL.md.name: must be a string"},
		{"name upper case", md(manifest("Skill", "d")), 400, "SKILL.md.name: must be 1 to 64 lowercase letters, digits and hyphens"},
		{"name underscore", md(manifest("my_skill", "d")), 400, "SKILL.md.name: must be 1 to 64 lowercase letters, digits and hyphens"},
		{"name double hyphen", md(manifest("a--b", "d")), 400, "SKILL.md.name: must be 1 to 64 lowercase letters, digits and hyphens"},
		{"name 65", md(manifest(strings.Repeat("a", 65), "d")), 400, "SKILL.md.name: must be 1 to 64 lowercase letters, digits and hyphens"},
		{"name reserved", md(manifest("my-vendor-tool", "d")), 400, "SKILL.md.name: must not contain the reserved word `vendor`"},
		{"directory name checked", []part{skillFile("Bad_Dir/SKILL.md", "---\ndescription: d\n---\n")}, 400, "SKILL.md.name: must be 1 to 64 lowercase letters, digits and hyphens"},
		{"no description", md("---\nname: s\n---\n"), 400, "SKILL.md.description: is required"},
		{"blank description", md("---\nname: s\ndescription: '  '\n---\n"), 400, "SKILL.md.description: is required"},
		{"description 1025", md(manifest("s", strings.Repeat("é", 1025))), 400, "SKILL.md.description: must be at most 1024 characters"},
		{"description xml", md(manifest("s", "Use <b>this</b>")), 400, "SKILL.md.description: must not contain XML tags"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.uploadForm(t, "/v1/skills", tc.parts)
			typ := "invalid_request_error"
			if tc.status == 413 {
				typ = "request_too_large"
			}
			wantError(t, r, tc.status, typ, tc.msg)
		})
	}
	// Accepted at the limits: 1024 characters, 64-character names, a
	// block description, other front matter members, the name from the
	// directory.
	for _, content := range []string{
		manifest(strings.Repeat("a", 64), strings.Repeat("é", 1024)),
		"---\r\nname: s\r\ndescription: >\r\n  Folded\r\n  text.\r\nlicense: MIT\r\nmetadata: {a: 1}\r\n---\r\n",
		"---\ndescription: \"from the directory; 1 < 2\"\n---\n",
	} {
		wantOK(t, e.uploadForm(t, "/v1/skills", md(content)))
	}
	wantError(t, e.do(t, "POST", "/v1/skills", `{"files":[]}`), 400, "invalid_request_error", "request body: must be multipart/form-data")

	// A new version keeps the name, takes no display_name, and needs the skill.
	id, _ := e.createSkill(t, "kept")
	wantInvalid(t, e.uploadForm(t, "/v1/skills/"+id+"/versions", []part{skillFile("other/SKILL.md", manifest("other", "d"))}),
		"SKILL.md.name: must be `kept`, the skill's name; got `other`")
	wantInvalid(t, e.uploadForm(t, "/v1/skills/"+id+"/versions", []part{{name: "display_name", data: []byte("x")}, skillFile("kept/SKILL.md", manifest("kept", "d"))}),
		"display_name: unknown field")
	wantError(t, e.uploadForm(t, "/v1/skills/skill_01missing/versions", []part{skillFile("kept/SKILL.md", manifest("kept", "d"))}), 404, "not_found_error", "Skill `skill_01missing` not found.")
}

func TestAgentSkillReferencesAreLookedUp(t *testing.T) {
	f := newEvFixture(t)
	id, v1 := f.createSkill(t, "notes")
	agent := func(skills string) response {
		return f.ma(t, "POST", "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5","skills":`+skills+`}`)
	}
	wantError(t, agent(`[{"type":"custom","skill_id":"skill_01missing"}]`), 404, "not_found_error", "skills[0].skill_id: skill `skill_01missing` not found")
	wantError(t, agent(`[{"type":"vendor","skill_id":"xlsx"},{"type":"custom","skill_id":"`+id+`","version":"skillver_01nope"}]`), 404, "not_found_error",
		"skills[1].version: skill version `skillver_01nope` not found")
	other := f.createWorkspace(t, "other")
	must(t, f.srv.GrantAPIAccess(f.seed.UserID, other))
	wantError(t, f.ma(t, "POST", "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5","skills":[{"type":"custom","skill_id":"`+id+`"}]}`, withWorkspace(other)),
		404, "not_found_error", "skills[0].skill_id: skill `"+id+"` not found")

	// An omitted version is pinned to the latest; "latest" and ids are kept.
	r := agent(`[{"type":"custom","skill_id":"` + id + `"},{"type":"vendor","skill_id":"xlsx"}]`)
	a := wantOK(t, r)
	if got := mustMarshal(a["skills"]); got != `[{"skill_id":"`+id+`","type":"custom","version":"`+v1+`"},{"skill_id":"xlsx","type":"vendor","version":"latest"}]` {
		t.Fatalf("skills %s", got)
	}
	upd := f.ma(t, "POST", "/v1/agents/"+a["id"].(string), `{"version":1,"skills":[{"type":"custom","skill_id":"skill_01missing","version":"latest"}]}`)
	wantError(t, upd, 404, "not_found_error", "skills[0].skill_id: skill `skill_01missing` not found")

	// The scripted agent names the session's custom skills in its reply.
	two, _ := f.createSkill(t, "charts")
	ag := f.agentWith(t, "skilled", "vendor-haiku-5-5", `,"skills":[{"type":"custom","skill_id":"`+id+`","version":"latest"},{"type":"custom","skill_id":"`+two+`"}]`)
	sid := f.sessionOf(t, ag, "")
	f.post(t, sid, msgEvent("hi"))
	msgs := ofType(f.log(t, sid), "agent.message")
	if len(msgs) != 1 || !strings.Contains(mustMarshal(msgs[0]["content"]), "You said: hi (skills: notes, charts)") {
		t.Fatalf("reply %v", msgs)
	}

	// agent_with_overrides sessions are checked too.
	r = f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","skills":[{"type":"custom","skill_id":"skill_01gone"}]},"environment_id":"`+f.envID+`"}`)
	wantError(t, r, 404, "not_found_error", "agent.skills[0].skill_id: skill `skill_01gone` not found")
}
