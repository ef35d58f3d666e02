package refserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

const workspacesPath = "/v1/organizations/workspaces"

func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCreateWorkspaceDefaults(t *testing.T) {
	e := newEnv(t)
	got := wantOK(t, e.do(t, "POST", workspacesPath, `{"name":"Research"}`))
	want := map[string]any{
		"type":           "workspace",
		"id":             "wrkspc_010000000000000000000002",
		"name":           "Research",
		"archived_at":    nil,
		"created_at":     "2026-11-25T21:56:21.123456Z",
		"compartment_id": "cmpt_010000000000000000000002",
		"data_residency": map[string]any{
			"allowed_inference_geos": "unrestricted",
			"default_inference_geo":  "global",
			"workspace_geo":          "us",
		},
		"display_color":   "#D97757",
		"external_key_id": nil,
		"tags":            map[string]any{},
		"user_profile_id": nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("created workspace\n got %v\nwant %v", got, want)
	}
	again := wantOK(t, e.do(t, "GET", workspacesPath+"/"+want["id"].(string), ""))
	if !reflect.DeepEqual(again, want) {
		t.Fatalf("get returned %v", again)
	}
}

func TestCreateWorkspaceWithEveryField(t *testing.T) {
	e := newEnv(t)
	body := `{"name":"EU","display_color":"#aa00FF","external_key_id":"ekey_01abc",
		"data_residency":{"allowed_inference_geos":["us","global"],"default_inference_geo":"us","workspace_geo":"us"},
		"tags":{"team":"ml","cost-center":""}}`
	got := wantOK(t, e.do(t, "POST", workspacesPath, body))
	if got["display_color"] != "#aa00FF" || got["external_key_id"] != "ekey_01abc" {
		t.Fatalf("got %v", got)
	}
	dr := got["data_residency"].(map[string]any)
	if !reflect.DeepEqual(dr["allowed_inference_geos"], []any{"us", "global"}) || dr["default_inference_geo"] != "us" {
		t.Fatalf("data_residency %v", dr)
	}
	if !reflect.DeepEqual(got["tags"], map[string]any{"team": "ml", "cost-center": ""}) {
		t.Fatalf("tags %v", got["tags"])
	}
}

func tagsOf(n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("k%02d", i)] = "v"
	}
	return m
}

// TestWorkspaceFieldLimits checks each rule at its boundary and one past it.
func TestWorkspaceFieldLimits(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name    string
		body    any
		message string // "" = accepted
	}{
		{"name missing", map[string]any{}, "name: is required"},
		{"name null", map[string]any{"name": nil}, "name: is required"},
		{"name 0", map[string]any{"name": ""}, "name: must be between 1 and 255 characters"},
		{"name 1", map[string]any{"name": "a"}, ""},
		{"name 255", map[string]any{"name": strings.Repeat("a", 255)}, ""},
		{"name 255 multibyte", map[string]any{"name": strings.Repeat("é", 255)}, ""},
		{"name 256", map[string]any{"name": strings.Repeat("a", 256)}, "name: must be between 1 and 255 characters"},
		{"tags 50", map[string]any{"name": "a", "tags": tagsOf(50)}, ""},
		{"tags 51", map[string]any{"name": "a", "tags": tagsOf(51)}, "tags: must have at most 50 entries"},
		{"tag key vendor", map[string]any{"name": "a", "tags": map[string]string{"vendor-team": "x"}}, "tags: key `vendor-team` must not begin with `vendor`"},
		{"tag key Vendor", map[string]any{"name": "a", "tags": map[string]string{"Vendor": "x"}}, "tags: key `Vendor` must not begin with `vendor`"},
		{"tag key VENDORx", map[string]any{"name": "a", "tags": map[string]string{"VENDORx": "x"}}, "tags: key `VENDORx` must not begin with `vendor`"},
		{"tag key containing vendor", map[string]any{"name": "a", "tags": map[string]string{"myvendor": "x"}}, ""},
		{"tag key empty", map[string]any{"name": "a", "tags": map[string]string{"": "x"}}, "tags: keys must be between 1 and 128 characters"},
		{"tag key 128", map[string]any{"name": "a", "tags": map[string]string{strings.Repeat("k", 128): "x"}}, ""},
		{"tag key 129", map[string]any{"name": "a", "tags": map[string]string{strings.Repeat("k", 129): "x"}}, "tags: keys must be between 1 and 128 characters"},
		{"tag value 256", map[string]any{"name": "a", "tags": map[string]string{"k": strings.Repeat("v", 256)}}, ""},
		{"tag value 257", map[string]any{"name": "a", "tags": map[string]string{"k": strings.Repeat("v", 257)}}, "tags.k: must be at most 256 characters"},
		{"color upper", map[string]any{"name": "a", "display_color": "#ABCDEF"}, ""},
		{"color no hash", map[string]any{"name": "a", "display_color": "ABCDEF"}, "display_color: must be a hex color of the form #RRGGBB"},
		{"color short", map[string]any{"name": "a", "display_color": "#ABC"}, "display_color: must be a hex color of the form #RRGGBB"},
		{"color long", map[string]any{"name": "a", "display_color": "#ABCDEF0"}, "display_color: must be a hex color of the form #RRGGBB"},
		{"color not hex", map[string]any{"name": "a", "display_color": "#GGGGGG"}, "display_color: must be a hex color of the form #RRGGBB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, "POST", workspacesPath, jsonBody(t, tc.body))
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
}

func TestDataResidencyRules(t *testing.T) {
	e := newEnv(t)
	const geosMsg = "data_residency.allowed_inference_geos: must be \"unrestricted\" or a non-empty array of distinct values from `global`, `us`"
	cases := []struct {
		name        string
		residency   string
		message     string // "" = accepted
		wantAllowed any
		wantDefault string
	}{
		{"empty object", `{}`, "", "unrestricted", "global"},
		{"unrestricted", `{"allowed_inference_geos":"unrestricted","default_inference_geo":"us"}`, "", "unrestricted", "us"},
		{"us only follows allowed", `{"allowed_inference_geos":["us"]}`, "", []any{"us"}, "us"},
		{"both", `{"allowed_inference_geos":["global","us"],"default_inference_geo":"us"}`, "", []any{"global", "us"}, "us"},
		{"nulls keep defaults", `{"allowed_inference_geos":null,"default_inference_geo":null,"workspace_geo":null}`, "", "unrestricted", "global"},
		{"empty array", `{"allowed_inference_geos":[]}`, geosMsg, nil, ""},
		{"duplicates", `{"allowed_inference_geos":["us","us"]}`, geosMsg, nil, ""},
		{"unknown geo", `{"allowed_inference_geos":["eu"]}`, geosMsg, nil, ""},
		{"other string", `{"allowed_inference_geos":"all"}`, geosMsg, nil, ""},
		{"number", `{"allowed_inference_geos":1}`, geosMsg, nil, ""},
		{"default not allowed", `{"allowed_inference_geos":["us"],"default_inference_geo":"global"}`, "data_residency.default_inference_geo: must be one of data_residency.allowed_inference_geos", nil, ""},
		{"default unknown", `{"default_inference_geo":"eu"}`, "data_residency.default_inference_geo: must be one of `global`, `us`", nil, ""},
		{"workspace geo us", `{"workspace_geo":"us"}`, "", "unrestricted", "global"},
		{"workspace geo eu", `{"workspace_geo":"eu"}`, "data_residency.workspace_geo: must be `us`", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, "POST", workspacesPath, `{"name":"a","data_residency":`+tc.residency+`}`)
			if tc.message != "" {
				wantInvalid(t, r, tc.message)
				return
			}
			dr := wantOK(t, r)["data_residency"].(map[string]any)
			if !reflect.DeepEqual(dr["allowed_inference_geos"], tc.wantAllowed) || dr["default_inference_geo"] != tc.wantDefault || dr["workspace_geo"] != "us" {
				t.Fatalf("data_residency %v", dr)
			}
		})
	}
}

func TestUpdateWorkspace(t *testing.T) {
	e := newEnv(t)
	id := e.createWorkspace(t, "before")
	path := workspacesPath + "/" + id
	got := wantOK(t, e.do(t, "POST", path, `{"name":"after","tags":{"a":"1"}}`))
	if got["name"] != "after" || !reflect.DeepEqual(got["tags"], map[string]any{"a": "1"}) {
		t.Fatalf("got %v", got)
	}
	// Omitted and null fields keep their values; tags are replaced whole.
	got = wantOK(t, e.do(t, "POST", path, `{"name":null,"tags":{"b":"2"},"data_residency":{"default_inference_geo":"us"}}`))
	if got["name"] != "after" || !reflect.DeepEqual(got["tags"], map[string]any{"b": "2"}) {
		t.Fatalf("got %v", got)
	}
	if dr := got["data_residency"].(map[string]any); dr["default_inference_geo"] != "us" || dr["allowed_inference_geos"] != "unrestricted" {
		t.Fatalf("data_residency %v", dr)
	}
	wantInvalid(t, e.do(t, "POST", path, `{"data_residency":{"workspace_geo":"eu"}}`), "data_residency.workspace_geo: is immutable after creation")
	wantOK(t, e.do(t, "POST", path, `{"data_residency":{"workspace_geo":"us"}}`))
	// The merged result must hold: default us is not in [global].
	wantInvalid(t, e.do(t, "POST", path, `{"data_residency":{"allowed_inference_geos":["global"]}}`),
		"data_residency.default_inference_geo: must be one of data_residency.allowed_inference_geos")
	wantInvalid(t, e.do(t, "POST", path, `{"name":""}`), "name: must be between 1 and 255 characters")
	// A rejected update changes nothing.
	wantInvalid(t, e.do(t, "POST", path, `{"name":"changed","display_color":"red"}`), "display_color: must be a hex color of the form #RRGGBB")
	if got := wantOK(t, e.do(t, "GET", path, "")); got["name"] != "after" {
		t.Fatalf("rejected update changed the name: %v", got["name"])
	}
	wantError(t, e.do(t, "POST", workspacesPath+"/wrkspc_01nothere", `{"name":"x"}`), http.StatusNotFound, "not_found_error", "Workspace `wrkspc_01nothere` not found.")
}

func TestExternalKeyIDIsWriteOnce(t *testing.T) {
	cases := []struct {
		name      string
		opts      []refserver.Option
		first     string
		second    string
		malformed []string
	}{
		{
			name:      "standard edition",
			first:     "ekey_01first",
			second:    "ekey_01second",
			malformed: []string{"ekey_", "key_01", "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"},
		},
		{
			name:   "cloud edition",
			opts:   []refserver.Option{refserver.WithCloudEdition()},
			first:  "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
			second: "arn:aws:kms:us-east-1:123456789012:key/0000abcd-12ab-34cd-56ef-1234567890ab",
			malformed: []string{
				"ekey_01first",
				"arn:aws:kms:us-east-1:12345678901:key/abc",                       // 11-digit account
				"arn:aws:kms:us-east-1:123456789012:alias/abc",                    // alias, not key
				"arn:aws:kms:us-east-1:123456789012:key/mrk-1234abcd12ab34cd56ef", // multi-Region
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts...)
			id := e.createWorkspace(t, "w")
			path := workspacesPath + "/" + id
			for _, bad := range tc.malformed {
				r := e.do(t, "POST", path, jsonBody(t, map[string]string{"external_key_id": bad}))
				wantInvalid(t, r, "")
				if !strings.HasPrefix(errorMessage(t, r), "external_key_id: ") {
					t.Fatalf("message %q does not name the field", errorMessage(t, r))
				}
			}
			wantOK(t, e.do(t, "POST", path, `{"external_key_id":null}`)) // nothing to detach yet
			got := wantOK(t, e.do(t, "POST", path, jsonBody(t, map[string]string{"external_key_id": tc.first})))
			if got["external_key_id"] != tc.first {
				t.Fatalf("external_key_id %v", got["external_key_id"])
			}
			wantOK(t, e.do(t, "POST", path, jsonBody(t, map[string]string{"external_key_id": tc.first}))) // same value
			wantInvalid(t, e.do(t, "POST", path, jsonBody(t, map[string]string{"external_key_id": tc.second})),
				"external_key_id: is write-once and cannot be replaced once set")
			wantInvalid(t, e.do(t, "POST", path, `{"external_key_id":null}`),
				"external_key_id: is write-once and cannot be detached once set")
			wantOK(t, e.do(t, "POST", path, `{"name":"renamed"}`)) // omitted keeps it
			if got := wantOK(t, e.do(t, "GET", path, "")); got["external_key_id"] != tc.first {
				t.Fatalf("external_key_id %v", got["external_key_id"])
			}
		})
	}
}

func TestArchiveWorkspace(t *testing.T) {
	e := newEnv(t)
	id := e.createWorkspace(t, "w")
	path := workspacesPath + "/" + id
	e.clock.Advance(1500) // 1.5µs: archived_at is truncated to microseconds
	first := wantOK(t, e.do(t, "POST", path+"/archive", ""))
	if first["archived_at"] != "2026-11-25T21:56:21.123457Z" {
		t.Fatalf("archived_at %v", first["archived_at"])
	}
	e.clock.Advance(1e9)
	second := wantOK(t, e.do(t, "POST", path+"/archive", ""))
	if !reflect.DeepEqual(first, second) {
		t.Fatalf("archiving again changed the workspace: %v", second)
	}
	conflict := e.do(t, "POST", path, `{"name":"x"}`)
	wantError(t, conflict, http.StatusConflict, "conflict_error", "Workspace `"+id+"` is archived and cannot be updated.")
	if got := conflict.header.Get("x-should-retry"); got != "false" {
		t.Fatalf("x-should-retry %q: a state conflict cannot be cured by retrying", got)
	}
	wantInvalid(t, e.do(t, "POST", workspacesPath+"/"+e.seed.DefaultWorkspaceID+"/archive", ""),
		"Workspace `"+e.seed.DefaultWorkspaceID+"` is the default workspace and cannot be archived.")
	if err := e.srv.ArchiveWorkspace(e.seed.DefaultWorkspaceID); err == nil {
		t.Fatal("ArchiveWorkspace archived the default workspace")
	}
	wantInvalid(t, e.do(t, "POST", path+"/archive", `{"force":true}`), "force: unknown field")
	wantError(t, e.do(t, "POST", workspacesPath+"/wrkspc_01nothere/archive", ""), http.StatusNotFound, "not_found_error", "Workspace `wrkspc_01nothere` not found.")
	// Still readable.
	if got := wantOK(t, e.do(t, "GET", path, "")); got["archived_at"] == nil {
		t.Fatal("archived_at is null after archiving")
	}
}

type workspacePage struct {
	Data []struct {
		ID         string  `json:"id"`
		ArchivedAt *string `json:"archived_at"`
	} `json:"data"`
	FirstID *string `json:"first_id"`
	HasMore bool    `json:"has_more"`
	LastID  *string `json:"last_id"`
}

func (p workspacePage) ids() []string {
	ids := make([]string, len(p.Data))
	for i, w := range p.Data {
		ids[i] = w.ID
	}
	return ids
}

func listWorkspaces(t *testing.T, e *env, query string) workspacePage {
	t.Helper()
	var p workspacePage
	r := e.do(t, "GET", workspacesPath+query, "")
	wantOK(t, r)
	r.decode(t, &p)
	return p
}

func TestListWorkspacesPagination(t *testing.T) {
	e := newEnv(t)
	var ids []string // oldest first
	for i := range 5 {
		ids = append(ids, e.createWorkspace(t, fmt.Sprint("w", i)))
		e.clock.Advance(1000)
	}
	w0, w1, w2, w3, w4 := ids[0], ids[1], ids[2], ids[3], ids[4]
	def := e.seed.DefaultWorkspaceID
	cases := []struct {
		query   string
		want    []string
		hasMore bool
	}{
		{"", []string{w4, w3, w2, w1, w0}, false},
		{"?limit=2", []string{w4, w3}, true},
		{"?limit=2&after_id=" + w3, []string{w2, w1}, true},
		{"?limit=2&after_id=" + w1, []string{w0}, false},
		{"?limit=2&after_id=" + w0, nil, false},
		{"?limit=2&before_id=" + w0, []string{w2, w1}, true},
		{"?limit=2&before_id=" + w2, []string{w4, w3}, false},
		{"?limit=2&before_id=" + w4, nil, false},
		{"?limit=1000&include_default=true", []string{w4, w3, w2, w1, w0, def}, false},
		{"?limit=5&include_default=true", []string{w4, w3, w2, w1, w0}, true},
		{"?limit=1&include_default=true&after_id=" + w0, []string{def}, false},
		{"?limit=1&include_default=true&before_id=" + def, []string{w0}, true},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			p := listWorkspaces(t, e, tc.query)
			if got := p.ids(); !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Fatalf("ids %v, want %v", got, tc.want)
			}
			if p.HasMore != tc.hasMore {
				t.Fatalf("has_more %v, want %v", p.HasMore, tc.hasMore)
			}
			if len(tc.want) == 0 {
				if p.FirstID != nil || p.LastID != nil || p.Data == nil {
					t.Fatalf("empty page: first_id %v, last_id %v, data %v", p.FirstID, p.LastID, p.Data)
				}
				return
			}
			if *p.FirstID != tc.want[0] || *p.LastID != tc.want[len(tc.want)-1] {
				t.Fatalf("first_id %v last_id %v", *p.FirstID, *p.LastID)
			}
		})
	}
	// Empty pages still send the keys, with null.
	r := e.do(t, "GET", workspacesPath+"?after_id="+w0, "")
	if s := string(r.body); !strings.Contains(s, `"data":[]`) || !strings.Contains(s, `"first_id":null`) || !strings.Contains(s, `"last_id":null`) {
		t.Fatalf("empty page body %s", s)
	}
}

func TestListWorkspacesParameters(t *testing.T) {
	e := newEnv(t)
	id := e.createWorkspace(t, "w")
	cases := []struct {
		query, message string // "" = accepted
	}{
		{"?limit=0", "limit: must be between 1 and 1000"},
		{"?limit=1", ""},
		{"?limit=1000", ""},
		{"?limit=1001", "limit: must be between 1 and 1000"},
		{"?limit=-1", "limit: must be between 1 and 1000"},
		{"?limit=ten", "limit: must be an integer"},
		{"?after_id=" + id + "&before_id=" + id, "after_id: cannot be combined with before_id"},
		{"?after_id=wrkspc_01nothere", "after_id: no object with id `wrkspc_01nothere`"},
		{"?before_id=wrkspc_01nothere", "before_id: no object with id `wrkspc_01nothere`"},
		{"?include_archived=maybe", "include_archived: must be true or false"},
		{"?include_default=2", "include_default: must be true or false"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			r := e.do(t, "GET", workspacesPath+tc.query, "")
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
}

func TestListWorkspacesFilters(t *testing.T) {
	e := newEnv(t)
	active := e.createWorkspace(t, "active")
	e.clock.Advance(1000)
	archived := e.createWorkspace(t, "archived")
	wantOK(t, e.do(t, "POST", workspacesPath+"/"+archived+"/archive", ""))
	def := e.seed.DefaultWorkspaceID
	cases := []struct {
		query string
		want  []string
	}{
		{"", []string{active}},
		{"?include_archived=false&include_default=false", []string{active}},
		{"?include_archived=true", []string{archived, active}},
		{"?include_default=true", []string{active, def}},
		{"?include_archived=true&include_default=true", []string{archived, active, def}},
		// A page anchored on an object the filter hides still works.
		{"?after_id=" + archived, []string{active}},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			if got := listWorkspaces(t, e, tc.query).ids(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ids %v, want %v", got, tc.want)
			}
		})
	}
}
