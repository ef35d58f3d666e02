package refserver_test

import (
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var domainPattern = regexp.MustCompile(`^[a-z0-9]{12}\.tunnel\.vendor\.dev$`)

func TestTunnelLifecycle(t *testing.T) {
	e := newEnv(t)
	created := wantOK(t, e.do(t, "POST", "/v1/tunnels", `{"display_name":"laptop"}`, tunnelsBeta))
	id := created["id"].(string)
	if created["type"] != "tunnel" || !strings.HasPrefix(id, "tnl_") || created["display_name"] != "laptop" ||
		created["created_at"] != "2026-11-25T21:56:21.123456Z" || !domainPattern.MatchString(created["domain"].(string)) {
		t.Fatalf("created %v", created)
	}
	if v, ok := created["archived_at"]; !ok || v != nil {
		t.Fatalf("archived_at %v (present %v)", v, ok)
	}
	got := wantOK(t, e.do(t, "GET", "/v1/tunnels/"+id, "", tunnelsBeta))
	if !reflect.DeepEqual(got, created) {
		t.Fatalf("get %v", got)
	}
	e.clock.Advance(1000)
	archived := wantOK(t, e.do(t, "POST", "/v1/tunnels/"+id+"/archive", "", tunnelsBeta))
	if archived["archived_at"] != "2026-11-25T21:56:21.123457Z" || archived["domain"] != created["domain"] {
		t.Fatalf("archived %v", archived)
	}
	e.clock.Advance(1000)
	if again := wantOK(t, e.do(t, "POST", "/v1/tunnels/"+id+"/archive", "", tunnelsBeta)); !reflect.DeepEqual(again, archived) {
		t.Fatalf("archive is not idempotent: %v", again)
	}
	wantError(t, e.do(t, "GET", "/v1/tunnels/tnl_01nothere", "", tunnelsBeta), http.StatusNotFound, "not_found_error", "Tunnel `tnl_01nothere` not found.")
	wantError(t, e.do(t, "POST", "/v1/tunnels/tnl_01nothere/archive", "", tunnelsBeta), http.StatusNotFound, "not_found_error", "Tunnel `tnl_01nothere` not found.")
}

func TestTunnelDisplayName(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		body    string
		want    any
		message string
	}{
		{``, nil, ""},
		{`{}`, nil, ""},
		{`{"display_name":null}`, nil, ""},
		{`{"display_name":"a"}`, "a", ""},
		{`{"display_name":"` + strings.Repeat("n", 255) + `"}`, strings.Repeat("n", 255), ""},
		{`{"display_name":""}`, nil, "display_name: must be between 1 and 255 characters"},
		{`{"display_name":"` + strings.Repeat("n", 256) + `"}`, nil, "display_name: must be between 1 and 255 characters"},
		{`{"display_name":1}`, nil, "display_name: must be a string"},
		{`{"name":"x"}`, nil, "name: unknown field"},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			r := e.do(t, "POST", "/v1/tunnels", tc.body, tunnelsBeta)
			if tc.message != "" {
				wantInvalid(t, r, tc.message)
				return
			}
			got := wantOK(t, r)
			if v, ok := got["display_name"]; !ok || v != tc.want {
				t.Fatalf("display_name %v (present %v), want %v", v, ok, tc.want)
			}
		})
	}
}

func TestTunnelsRequireTheirBeta(t *testing.T) {
	e := newEnv(t)
	id := e.createTunnel(t)
	for _, req := range []struct{ method, path string }{
		{"POST", "/v1/tunnels"},
		{"GET", "/v1/tunnels"},
		{"GET", "/v1/tunnels/" + id},
		{"POST", "/v1/tunnels/" + id + "/archive"},
	} {
		r := e.do(t, req.method, req.path, "")
		wantInvalid(t, r, "vendor-beta: this endpoint requires the beta value `mcp-tunnels-2026-06-22`")
	}
}

func TestTunnelsBelongToTheirWorkspace(t *testing.T) {
	e := newEnv(t)
	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	mine := e.createTunnel(t)
	theirs := e.createTunnel(t, withWorkspace(other))
	wantError(t, e.do(t, "GET", "/v1/tunnels/"+theirs, "", tunnelsBeta), http.StatusNotFound, "not_found_error", "Tunnel `"+theirs+"` not found.")
	wantError(t, e.do(t, "POST", "/v1/tunnels/"+mine+"/archive", "", tunnelsBeta, withWorkspace(other)), http.StatusNotFound, "not_found_error", "Tunnel `"+mine+"` not found.")
	if got := listTunnelIDs(t, e, "", withWorkspace(other)); !reflect.DeepEqual(got, []string{theirs}) {
		t.Fatalf("other workspace lists %v", got)
	}
	if got := listTunnelIDs(t, e, ""); !reflect.DeepEqual(got, []string{mine}) {
		t.Fatalf("default workspace lists %v", got)
	}
}

type tunnelPage struct {
	Data []struct {
		ID     string `json:"id"`
		Domain string `json:"domain"`
	} `json:"data"`
	NextPage *string `json:"next_page"`
}

func listTunnels(t *testing.T, e *env, query string, mods ...mod) tunnelPage {
	t.Helper()
	r := e.do(t, "GET", "/v1/tunnels"+query, "", append([]mod{tunnelsBeta}, mods...)...)
	wantOK(t, r)
	if !strings.Contains(string(r.body), `"next_page":`) {
		t.Fatalf("next_page key missing: %s", r.body)
	}
	var p tunnelPage
	r.decode(t, &p)
	return p
}

func listTunnelIDs(t *testing.T, e *env, query string, mods ...mod) []string {
	t.Helper()
	var ids []string
	for _, tn := range listTunnels(t, e, query, mods...).Data {
		ids = append(ids, tn.ID)
	}
	return ids
}

// TestTunnelCursorPagination walks every page while tunnels are created
// in between: new tunnels sort first, so they never shift a page.
func TestTunnelCursorPagination(t *testing.T) {
	e := newEnv(t)
	var created []string // oldest first
	for i := range 7 {
		created = append(created, e.createTunnel(t))
		if i%2 == 0 {
			e.clock.Advance(1000) // some share a created_at: id breaks the tie
		}
	}
	want := make([]string, len(created))
	for i, id := range created {
		want[len(created)-1-i] = id
	}
	var walked []string
	query := "?limit=3"
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
		p := listTunnels(t, e, query)
		for _, tn := range p.Data {
			walked = append(walked, tn.ID)
		}
		e.createTunnel(t) // inserted between page requests
		e.clock.Advance(1000)
		if p.NextPage == nil {
			break
		}
		if !strings.HasPrefix(*p.NextPage, "page_") {
			t.Fatalf("next_page %q", *p.NextPage)
		}
		query = "?limit=3&page=" + url.QueryEscape(*p.NextPage)
	}
	if !reflect.DeepEqual(walked, want) {
		t.Fatalf("walked %v\nwant   %v", walked, want)
	}
	// An exactly full last page has no next page.
	p := listTunnels(t, e, "?limit=1000")
	if len(p.Data) != len(created)+3 || p.NextPage != nil {
		t.Fatalf("%d tunnels, next_page %v", len(p.Data), p.NextPage)
	}
}

func TestTunnelListParameters(t *testing.T) {
	e := newEnv(t)
	for range 21 {
		e.createTunnel(t)
	}
	if p := listTunnels(t, e, ""); len(p.Data) != 20 || p.NextPage == nil {
		t.Fatalf("default page: %d tunnels, next_page %v", len(p.Data), p.NextPage)
	}
	cases := []struct{ query, message string }{
		{"?limit=0", "limit: must be between 1 and 1000"},
		{"?limit=1", ""},
		{"?limit=1000", ""},
		{"?limit=1001", "limit: must be between 1 and 1000"},
		{"?page=abc", "page: invalid cursor"},
		{"?page=page_!!!", "page: invalid cursor"},
		{"?page=page_" + "bm90LWEtY3Vyc29y", "page: invalid cursor"},
		{"?include_archived=yes", "include_archived: must be true or false"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			r := e.do(t, "GET", "/v1/tunnels"+tc.query, "", tunnelsBeta)
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
}

func TestTunnelIncludeArchived(t *testing.T) {
	e := newEnv(t)
	kept := e.createTunnel(t)
	e.clock.Advance(1000)
	gone := e.createTunnel(t)
	wantOK(t, e.do(t, "POST", "/v1/tunnels/"+gone+"/archive", "", tunnelsBeta))
	if got := listTunnelIDs(t, e, ""); !reflect.DeepEqual(got, []string{kept}) {
		t.Fatalf("default list %v", got)
	}
	if got := listTunnelIDs(t, e, "?include_archived=true"); !reflect.DeepEqual(got, []string{gone, kept}) {
		t.Fatalf("with archived %v", got)
	}
}

func TestTunnelDomainsAreUnique(t *testing.T) {
	e := newEnv(t)
	seen := map[string]bool{}
	for range 200 {
		r := wantOK(t, e.do(t, "POST", "/v1/tunnels", "", tunnelsBeta))
		d := r["domain"].(string)
		if !domainPattern.MatchString(d) || seen[d] {
			t.Fatalf("domain %q (seen before: %v)", d, seen[d])
		}
		seen[d] = true
	}
}
