package sessions_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func TestListFilters(t *testing.T) {
	f := newFixture(t)
	other := f.newAgent(t, agents.CreateParams{Name: "other", Model: agents.ModelID(models.VendorHaiku55)})
	store := f.newStore(t, "notes", "")

	next := func(p sessions.CreateParams) *sessions.Session {
		f.clock.Advance(time.Second)
		return f.newSession(t, p)
	}
	s1 := next(f.params()) // agent v1
	_, err := f.client.Agents.Update(ctx, f.agent.ID, agents.UpdateParams{System: param.Value("v2")})
	require.NoError(t, err)
	s2 := next(f.params()) // agent v2
	s3 := next(sessions.CreateParams{Agent: agents.AgentID(other.ID), EnvironmentID: f.envID})
	withStore := f.params()
	withStore.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID}}
	s4 := next(withStore)
	s5 := next(f.params())
	_, err = f.client.Sessions.Archive(ctx, s5.ID)
	require.NoError(t, err)

	list := func(t *testing.T, p sessions.ListParams) []string {
		t.Helper()
		page, err := f.client.Sessions.List(ctx, p)
		require.NoError(t, err)
		require.Empty(t, page.NextPage)
		return ids(page.Data)
	}
	cases := []struct {
		name   string
		params sessions.ListParams
		want   []*sessions.Session
	}{
		{"newest first, archived left out", sessions.ListParams{}, []*sessions.Session{s4, s3, s2, s1}},
		{"include_archived", sessions.ListParams{IncludeArchived: true}, []*sessions.Session{s5, s4, s3, s2, s1}},
		{"order asc", sessions.ListParams{Order: sessions.OrderAsc}, []*sessions.Session{s1, s2, s3, s4}},
		{"order desc", sessions.ListParams{Order: sessions.OrderDesc}, []*sessions.Session{s4, s3, s2, s1}},
		{"agent_id", sessions.ListParams{AgentID: f.agent.ID}, []*sessions.Session{s4, s2, s1}},
		{"agent_version", sessions.ListParams{AgentID: f.agent.ID, AgentVersion: 1}, []*sessions.Session{s1}},
		{"created_at[gt] is exclusive", sessions.ListParams{CreatedAtGT: s2.CreatedAt}, []*sessions.Session{s4, s3}},
		{"created_at[gte] is inclusive", sessions.ListParams{CreatedAtGTE: s2.CreatedAt}, []*sessions.Session{s4, s3, s2}},
		{"created_at[lt] is exclusive", sessions.ListParams{CreatedAtLT: s2.CreatedAt}, []*sessions.Session{s1}},
		{"created_at[lte] is inclusive", sessions.ListParams{CreatedAtLTE: s2.CreatedAt}, []*sessions.Session{s2, s1}},
		{"a window", sessions.ListParams{CreatedAtGT: s1.CreatedAt, CreatedAtLT: s4.CreatedAt}, []*sessions.Session{s3, s2}},
		{"memory_store_id", sessions.ListParams{MemoryStoreID: store.ID}, []*sessions.Session{s4}},
		{"statuses", sessions.ListParams{Statuses: []sessions.Status{sessions.StatusIdle, sessions.StatusTerminated}}, []*sessions.Session{s4, s3, s2, s1}},
		{"statuses, none match", sessions.ListParams{Statuses: []sessions.Status{sessions.StatusTerminated}}, nil},
		{"deployment_id of no deployment", sessions.ListParams{DeploymentID: "depl_011CZkZcDH3vPqd7xnEfwTai"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := []string{}
			for _, s := range tc.want {
				want = append(want, s.ID)
			}
			require.Equal(t, want, list(t, tc.params))
		})
	}

	t.Run("statuses is repeated on the wire", func(t *testing.T) {
		f.env.Server.ResetRequests()
		list(t, sessions.ListParams{Statuses: []sessions.Status{sessions.StatusIdle, sessions.StatusRunning}})
		reqs := f.env.Server.Requests()
		require.Len(t, reqs, 1)
		require.Equal(t, "statuses=idle&statuses=running", reqs[0].RawQuery)
	})

	t.Run("statuses filter", func(t *testing.T) {
		require.Empty(t, list(t, sessions.ListParams{Statuses: []sessions.Status{sessions.StatusRunning}}))
		f.clock.Advance(time.Second)
		s6 := f.running(t, f.params()) // a turn held by the scripted agent
		ids := func(ss ...*sessions.Session) []string {
			out := []string{}
			for _, s := range ss {
				out = append(out, s.ID)
			}
			return out
		}
		require.Equal(t, ids(s6), list(t, sessions.ListParams{Statuses: []sessions.Status{sessions.StatusRunning}}))
		require.Equal(t, ids(s4, s3, s2, s1), list(t, sessions.ListParams{Statuses: []sessions.Status{sessions.StatusIdle}}))
		require.Equal(t, ids(s6, s4, s3, s2, s1), list(t, sessions.ListParams{Statuses: []sessions.Status{sessions.StatusIdle, sessions.StatusRunning}}))
	})
}

func TestListServerRules(t *testing.T) {
	f := newFixture(t)
	for range 3 {
		f.clock.Advance(time.Second)
		f.newSession(t, f.params())
	}
	_, err := f.client.Sessions.List(ctx, sessions.ListParams{Page: "page_bogus"})
	reftest.RequireInvalid(t, err, "page: invalid cursor")

	first, err := f.client.Sessions.List(ctx, sessions.ListParams{Limit: 1})
	require.NoError(t, err)
	_, err = f.client.Sessions.List(ctx, sessions.ListParams{Limit: 1, Page: first.NextPage, Order: sessions.OrderAsc})
	reftest.RequireInvalid(t, err, "page: cursor does not match this query")
	_, err = f.client.Sessions.List(ctx, sessions.ListParams{Limit: 1, Page: first.NextPage, CreatedAtGTE: start})
	reftest.RequireInvalid(t, err, "page: cursor does not match this query")

	// Status values are the server's to judge.
	_, err = f.client.Sessions.List(ctx, sessions.ListParams{Statuses: []sessions.Status{"sleeping"}})
	reftest.RequireInvalid(t, err, "statuses")
}

func TestListPages(t *testing.T) {
	f := newFixture(t)
	var created []string
	for range 5 {
		f.clock.Advance(time.Second)
		created = append([]string{f.newSession(t, f.params()).ID}, created...) // newest first
	}

	t.Run("next and previous pages", func(t *testing.T) {
		p1, err := f.client.Sessions.List(ctx, sessions.ListParams{Limit: 2})
		require.NoError(t, err)
		require.Equal(t, created[:2], ids(p1.Data))
		require.Empty(t, p1.PrevPage, "the first page has no previous page")
		require.True(t, p1.HasMore())

		p2, err := f.client.Sessions.List(ctx, sessions.ListParams{Limit: 2, Page: p1.NextPage})
		require.NoError(t, err)
		require.Equal(t, created[2:4], ids(p2.Data))
		require.NotEmpty(t, p2.PrevPage)

		p3, err := f.client.Sessions.List(ctx, sessions.ListParams{Limit: 2, Page: p2.NextPage})
		require.NoError(t, err)
		require.Equal(t, created[4:], ids(p3.Data))
		require.Empty(t, p3.NextPage)

		back, err := f.client.Sessions.List(ctx, sessions.ListParams{Limit: 2, Page: p3.PrevPage})
		require.NoError(t, err)
		require.Equal(t, ids(p2.Data), ids(back.Data), "prev_page leads to the page before")
	})

	t.Run("All walks to the end", func(t *testing.T) {
		f.env.Server.ResetRequests()
		var got []string
		for s, err := range f.client.Sessions.All(ctx, sessions.ListParams{Limit: 2}) {
			require.NoError(t, err)
			got = append(got, s.ID)
		}
		require.Equal(t, created, got)
		require.Equal(t, 3, f.env.Count("GET", "/v1/sessions"))
	})

	t.Run("All stops early", func(t *testing.T) {
		f.env.Server.ResetRequests()
		var got []string
		for s, err := range f.client.Sessions.All(ctx, sessions.ListParams{Limit: 2, Order: sessions.OrderAsc}) {
			require.NoError(t, err)
			got = append(got, s.ID)
			if len(got) == 3 {
				break
			}
		}
		require.Equal(t, []string{created[4], created[3], created[2]}, got)
		require.Equal(t, 2, f.env.Count("GET", "/v1/sessions"), "no page is fetched past the break")
	})
}
