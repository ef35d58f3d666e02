package refserver_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// List Sessions (docs/managed-agents-wire.md 6.4): order, filters,
// next_page and prev_page, and cursors bound to their query.

type sessionPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	NextPage *string `json:"next_page"`
	PrevPage *string `json:"prev_page"`
}

func (p sessionPage) ids() []string {
	var out []string
	for _, x := range p.Data {
		out = append(out, x.ID)
	}
	return out
}

func (f sessionFixture) listSessions(t *testing.T, query string) sessionPage {
	t.Helper()
	var p sessionPage
	r := f.ma(t, "GET", sessionsPath+query, "")
	wantOK(t, r)
	r.decode(t, &p)
	return p
}

func TestSessionListPagination(t *testing.T) {
	f := newSessionFixture(t)
	var ids []string // creation order
	for range 5 {
		ids = append(ids, f.sessionID(t, ""))
		f.clock.Advance(time.Second)
	}
	newest := slices.Clone(ids)
	slices.Reverse(newest)

	first := f.listSessions(t, "")
	if !slices.Equal(first.ids(), newest) || first.NextPage != nil || first.PrevPage != nil {
		t.Fatalf("default page %v", first)
	}
	// Walk forward to the end with limit 2, in both orders.
	for _, tc := range []struct {
		order string
		want  []string
	}{{"", newest}, {"&order=desc", newest}, {"&order=asc", ids}} {
		var walked []string
		var pages []sessionPage
		p := f.listSessions(t, "?limit=2"+tc.order)
		for {
			pages = append(pages, p)
			walked = append(walked, p.ids()...)
			if p.NextPage == nil {
				break
			}
			p = f.listSessions(t, "?limit=2"+tc.order+"&page="+*p.NextPage)
		}
		if !slices.Equal(walked, tc.want) || len(pages) != 3 {
			t.Fatalf("order %q walked %v in %d pages", tc.order, walked, len(pages))
		}
		if pages[0].PrevPage != nil || pages[1].PrevPage == nil || pages[2].PrevPage == nil {
			t.Fatalf("prev_page: first page must have none, later pages one")
		}
		// Walk back from the last page with prev_page.
		back := f.listSessions(t, "?limit=2"+tc.order+"&page="+*pages[2].PrevPage)
		if !slices.Equal(back.ids(), pages[1].ids()) || back.NextPage == nil || back.PrevPage == nil {
			t.Fatalf("order %q: back to page 2 gave %v", tc.order, back.ids())
		}
		back = f.listSessions(t, "?limit=2"+tc.order+"&page="+*back.PrevPage)
		if !slices.Equal(back.ids(), pages[0].ids()) || back.PrevPage != nil {
			t.Fatalf("order %q: back to page 1 gave %v (prev %v)", tc.order, back.ids(), back.PrevPage)
		}
	}
	// Stopping early: a cursor stays valid while sessions are created.
	p := f.listSessions(t, "?limit=2")
	f.sessionID(t, "")
	next := f.listSessions(t, "?limit=2&page="+*p.NextPage)
	if !slices.Equal(next.ids(), newest[2:4]) {
		t.Fatalf("page after a create %v", next.ids())
	}

	// A cursor is bound to its order and created_at window.
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?limit=2&order=asc&page="+*p.NextPage, ""), "page: cursor does not match this query")
	window := "&created_at[gte]=" + url.QueryEscape(testStart.Format(time.RFC3339Nano))
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?limit=2"+window+"&page="+*p.NextPage, ""), "page: cursor does not match this query")
	wp := f.listSessions(t, "?limit=2"+window)
	wantOK(t, f.ma(t, "GET", sessionsPath+"?limit=3&statuses=idle"+window+"&page="+*wp.NextPage, ""))
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?page=page_bm9wZQ", ""), "page: invalid cursor")
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?page=nope", ""), "page: invalid cursor")

	wantOK(t, f.ma(t, "GET", sessionsPath+"?limit=1", ""))
	wantOK(t, f.ma(t, "GET", sessionsPath+"?limit=100", ""))
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?limit=101", ""), "limit: must be between 1 and 100")
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?limit=0", ""), "limit: must be between 1 and 100")
	wantInvalid(t, f.ma(t, "GET", sessionsPath+"?order=up", ""), "order: must be one of `asc`, `desc`")
}

func TestSessionListFilters(t *testing.T) {
	f := newSessionFixture(t)
	a1 := f.sessionID(t, "")
	wantOK(t, f.do(t, "POST", "/v1/agents/"+f.agent, `{"system":"v2"}`, agentsBeta))
	f.clock.Advance(time.Second)
	a2 := f.sessionID(t, "")
	other := f.createAgent(t, "b")
	f.clock.Advance(time.Second)
	b := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+other+`","environment_id":"`+f.envID+`"}`))["id"].(string)
	store := f.createMemoryStore(t, `{"name":"s"}`)
	f.clock.Advance(time.Second)
	withStore := f.sessionID(t, `,"resources":[{"type":"memory_store","memory_store_id":"`+store+`"}]`)
	f.srv.SetSessionStateForTest(a2, "running", 0)
	f.terminate(t, b)

	at := func(d time.Duration) string { return url.QueryEscape(testStart.Add(d).Format(time.RFC3339Nano)) }
	for query, want := range map[string][]string{
		"?agent_id=" + f.agent:                      {withStore, a2, a1},
		"?agent_id=" + f.agent + "&agent_version=1": {a1},
		"?agent_id=" + f.agent + "&agent_version=2": {withStore, a2},
		"?agent_id=" + other:                        {b},
		"?memory_store_id=" + store:                 {withStore},
		"?statuses=running&statuses=terminated":     {b, a2},
		"?statuses[]=idle":                          {withStore, a1},
		"?created_at[gt]=" + at(time.Second):        {withStore, b},
		"?created_at[gte]=" + at(time.Second):       {withStore, b, a2},
		"?created_at[lt]=" + at(time.Second):        {a1},
		"?created_at[lte]=" + at(time.Second):       {a2, a1},
		"?deployment_id=depl_01nope":                {},
		"?order=asc&statuses=idle":                  {a1, withStore},
	} {
		got := f.listSessions(t, query).ids()
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}
	for query, message := range map[string]string{
		"?agent_version=1":            "agent_version: requires agent_id",
		"?agent_id=x&agent_version=0": "agent_version: must be at least 1",
		"?agent_id=x&agent_version=a": "agent_version: must be an integer",
		"?statuses=sleeping":          "statuses: must be one of `idle`, `running`, `rescheduling`, `terminated`",
		"?created_at[gt]=yesterday":   "created_at[gt]: must be an RFC 3339 timestamp",
		"?created_at[lte]=2026-01-01": "created_at[lte]: must be an RFC 3339 timestamp",
		"?include_archived=yes":       "include_archived: must be true or false",
	} {
		wantInvalid(t, f.ma(t, "GET", sessionsPath+query, ""), message)
	}
	if got := strings.Join(f.listSessions(t, "?limit=1&order=asc").ids(), ","); got != a1 {
		t.Fatalf("first ascending %s", got)
	}
}
