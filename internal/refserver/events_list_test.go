package refserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// V2 List Events (docs/session-events-wire.md 2.2).

type eventPage struct {
	Data     []json.RawMessage `json:"data"`
	NextPage *string           `json:"next_page"`
}

func (f evFixture) listEvents(t *testing.T, sid, query string) eventPage {
	t.Helper()
	r := f.ma(t, "GET", eventsPath(sid)+query, "")
	requireKeys(t, wantOK(t, r), "data", "next_page")
	var p eventPage
	r.decode(t, &p)
	return p
}

func rawStrings(raws []json.RawMessage) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		out[i] = string(r)
	}
	return out
}

func TestListEvents(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.post(t, sid, msgEvent("one"))
	f.clock.Advance(time.Second)
	second := testStart.Add(time.Second).Format("2006-01-02T15:04:05.000000Z")
	f.post(t, sid, msgEvent("two"))
	all := rawStrings(f.srv.SessionEventsForTest(sid))
	if len(all) != 16 {
		t.Fatalf("log of %d events", len(all))
	}
	p := f.listEvents(t, sid, "")
	if !slices.Equal(rawStrings(p.Data), all) || p.NextPage != nil {
		t.Fatalf("list %v", p)
	}
	desc := slices.Clone(all)
	slices.Reverse(desc)
	if got := rawStrings(f.listEvents(t, sid, "?order=desc").Data); !slices.Equal(got, desc) {
		t.Fatal("desc is not the reversed log")
	}
	// Pages of 3, both orders, through next_page.
	for order, want := range map[string][]string{"asc": all, "desc": desc} {
		var got []string
		query := "?limit=3&order=" + order
		for pages := 0; ; pages++ {
			p := f.listEvents(t, sid, query)
			got = append(got, rawStrings(p.Data)...)
			if p.NextPage == nil {
				break
			}
			if pages > 10 {
				t.Fatal("no end")
			}
			query = "?limit=3&order=" + order + "&page=" + url.QueryEscape(*p.NextPage)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s pages %d events", order, len(got))
		}
	}
	// Filters: types (both forms, unknown ones match nothing), created_at
	// on processed_at.
	p = f.listEvents(t, sid, "?types=agent.message&types[]=session.status_idle&types=vendor.unknown")
	if len(p.Data) != 4 {
		t.Fatalf("types %s", rawStrings(p.Data))
	}
	if p := f.listEvents(t, sid, "?types=vendor.unknown"); len(p.Data) != 0 {
		t.Fatalf("unknown type %v", p.Data)
	}
	if p := f.listEvents(t, sid, "?created_at[gte]="+second); !slices.Equal(rawStrings(p.Data), all[8:]) {
		t.Fatalf("gte %d", len(p.Data))
	}
	if p := f.listEvents(t, sid, "?created_at[lt]="+second+"&created_at[gt]="+testNow); len(p.Data) != 0 {
		t.Fatalf("empty window %d", len(p.Data))
	}
	// A cursor is bound to its query.
	next := *f.listEvents(t, sid, "?limit=2").NextPage
	for query, message := range map[string]string{
		"?limit=2&order=desc&page=" + next:                      "page: cursor does not match this query",
		"?limit=2&types=agent.message&page=" + next:             "page: cursor does not match this query",
		"?limit=2&created_at[gte]=" + testNow + "&page=" + next: "page: cursor does not match this query",
		"?page=page_nope":           "page: invalid cursor",
		"?page=nope":                "page: invalid cursor",
		"?types=":                   "types: must not be empty",
		"?types[]=":                 "types: must not be empty",
		"?order=up":                 "order: must be one of `asc`, `desc`",
		"?limit=0":                  "limit: must be between 1 and 1000",
		"?limit=1001":               "limit: must be between 1 and 1000",
		"?created_at[gt]=yesterday": "created_at[gt]: must be an RFC 3339 timestamp",
	} {
		wantInvalid(t, f.ma(t, "GET", eventsPath(sid)+query, ""), message)
	}
	f.listEvents(t, sid, "?limit=2&page="+next+"&after_id=ignored")
	wantError(t, f.ma(t, "GET", eventsPath("sesn_nope"), ""), http.StatusNotFound, "not_found_error", "Session `sesn_nope` not found.")
	// A cursor of another session does not fit this one.
	other := f.sessionID(t, "")
	wantInvalid(t, f.ma(t, "GET", eventsPath(other)+"?limit=2&page="+next, ""), "page: invalid cursor")
}
