package refserver_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// TestListWorkspacesByIDs: the ids filter, as ids[] (the official clients'
// form) or plain ids, keeps only the named workspaces; the archived and
// default filters still apply, unknown ids match nothing, and malformed or
// too many ids are 400 naming ids.
func TestListWorkspacesByIDs(t *testing.T) {
	e := newEnv(t)
	a := e.createWorkspace(t, "a")
	e.clock.Advance(1000)
	b := e.createWorkspace(t, "b")
	def := e.seed.DefaultWorkspaceID
	cases := []struct {
		query string
		want  []string
	}{
		{"?ids[]=" + a, []string{a}},
		{"?ids=" + a + "&ids=" + b, []string{b, a}},
		{"?ids[]=" + a + "&ids=" + b, []string{b, a}},
		{"?ids[]=" + def + "&ids[]=" + a, []string{a}},
		{"?include_default=true&ids[]=" + def + "&ids[]=" + a, []string{a, def}},
		{"?ids[]=wrkspc_01missing", nil},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			if got := listWorkspaces(t, e, tc.query).ids(); !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Fatalf("ids %v, want %v", got, tc.want)
			}
		})
	}
	many := url.Values{}
	for range 101 {
		many.Add("ids[]", a)
	}
	for query, message := range map[string]string{
		"?ids[]=file_1":     "ids: `file_1` is not a workspace id (`wrkspc_…`)",
		"?ids=wrkspc_":      "ids: `wrkspc_` is not a workspace id (`wrkspc_…`)",
		"?" + many.Encode(): "ids: must have at most 100 values",
	} {
		t.Run(strings.SplitN(query, "&", 2)[0], func(t *testing.T) {
			wantError(t, e.do(t, "GET", workspacesPath+query, ""), http.StatusBadRequest, "invalid_request_error", message)
		})
	}
}
