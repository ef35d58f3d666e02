package sessions_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// limitCase is one call at a limit: accepted by the server (field == "")
// or refused locally, naming field, with nothing sent.
type limitCase struct {
	name  string
	call  func() error
	field string
}

func runLimitCases(t *testing.T, f *fixture, cases []limitCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := f.sent()
			err := tc.call()
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			reftest.RequireLocal(t, err, tc.field)
			require.Equal(t, before, f.sent(), "nothing is sent")
		})
	}
}

// fileIDs are n file ids; putFiles stores them on the fixture's server.
func fileIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("file_%04d", i)
	}
	return out
}

// fileResources are n file resources, of fileIDs(n).
func fileResources(n int) []sessions.ResourceParam {
	out := make([]sessions.ResourceParam, n)
	for i, id := range fileIDs(n) {
		out[i] = sessions.FileResourceParam{FileID: id}
	}
	return out
}

// madeUpVaultIDs are n vault ids of the right form that name no vault,
// for calls refused before anything is looked up.
func madeUpVaultIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("vlt_%04d", i)
	}
	return out
}

func messages(n int) []sessions.EventParam {
	out := make([]sessions.EventParam, n)
	for i := range out {
		out[i] = sessions.UserMessage(fmt.Sprint("message ", i))
	}
	return out
}

func TestCreateLimits(t *testing.T) {
	f := newFixture(t)
	store := f.newStore(t, "notes", "")
	create := func(edit func(*sessions.CreateParams)) func() error {
		return func() error {
			p := f.params()
			edit(&p)
			_, err := f.client.Sessions.Create(ctx, p)
			return err
		}
	}
	repo := func(r sessions.RepositoryResourceParam) func(*sessions.CreateParams) {
		if r.URL == "" {
			r.URL = repoURL
		}
		return func(p *sessions.CreateParams) { p.Resources = []sessions.ResourceParam{r} }
	}
	file := func(r sessions.FileResourceParam) func(*sessions.CreateParams) {
		return func(p *sessions.CreateParams) { p.Resources = []sessions.ResourceParam{r} }
	}
	events := func(es ...sessions.EventParam) func(*sessions.CreateParams) {
		return func(p *sessions.CreateParams) { p.InitialEvents = es }
	}
	budget := func(m money.Money) func(*sessions.CreateParams) {
		return func(p *sessions.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: m} }
	}
	outcome := func(o sessions.DefineOutcomeParam) func(*sessions.CreateParams) {
		return events(o)
	}
	longFileID := "file_" + rep(123)
	f.env.PutFiles(t, append(fileIDs(500), longFileID)...)
	fifty := f.newVaults(t, 50)
	runLimitCases(t, f, []limitCase{
		{"agent missing", create(func(p *sessions.CreateParams) { p.Agent = nil }), "agent"},
		{"agent id empty", create(func(p *sessions.CreateParams) { p.Agent = agents.AgentID("") }), "agent"},
		{"agent reference version", create(func(p *sessions.CreateParams) { p.Agent = agents.AgentReference{ID: f.agent.ID, Version: -1} }), "agent.version"},
		{"overrides without id", create(func(p *sessions.CreateParams) { p.Agent = sessions.AgentWithOverrides{} }), "agent.id"},
		{"overrides system", create(func(p *sessions.CreateParams) {
			p.Agent = sessions.AgentWithOverrides{AgentReference: f.agent.Reference(), System: param.Value(rep(100001))}
		}), "agent.system"},
		{"environment_id empty", create(func(p *sessions.CreateParams) { p.EnvironmentID = "" }), "environment_id"},
		{"environment_id 129", create(func(p *sessions.CreateParams) { p.EnvironmentID = "env_" + rep(125) }), "environment_id"},

		{"title 500", create(func(p *sessions.CreateParams) { p.Title = rep(500) }), ""},
		{"title 501", create(func(p *sessions.CreateParams) { p.Title = rep(501) }), "title"},
		{"title counts characters", create(func(p *sessions.CreateParams) { p.Title = strings.Repeat("é", 500) }), ""},

		{"metadata 16 pairs", create(func(p *sessions.CreateParams) { p.Metadata = pairs(16) }), ""},
		{"metadata 17 pairs", create(func(p *sessions.CreateParams) { p.Metadata = pairs(17) }), "metadata"},
		{"metadata key 64", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{rep(64): "v"} }), ""},
		{"metadata key 65", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{rep(65): "v"} }), "metadata"},
		{"metadata value 512", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{"k": rep(512)} }), ""},
		{"metadata value 513", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{"k": rep(513)} }), "metadata.k"},

		{"resources 500", create(func(p *sessions.CreateParams) { p.Resources = fileResources(500) }), ""},
		{"resources 501", create(func(p *sessions.CreateParams) { p.Resources = fileResources(501) }), "resources"},
		{"resource nil", create(func(p *sessions.CreateParams) { p.Resources = []sessions.ResourceParam{nil} }), "resources[0]"},
		{"file_id 128", create(file(sessions.FileResourceParam{FileID: longFileID})), ""},
		{"file_id 129", create(file(sessions.FileResourceParam{FileID: longFileID + "a"})), "resources[0].file_id"},
		{"file_id missing", create(file(sessions.FileResourceParam{})), "resources[0].file_id"},
		{"file mount path 4096", create(file(sessions.FileResourceParam{FileID: fileID, MountPath: "/" + rep(4095)})), ""},
		{"file mount path 4097", create(file(sessions.FileResourceParam{FileID: fileID, MountPath: "/" + rep(4096)})), "resources[0].mount_path"},
		{"repository url missing", create(func(p *sessions.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{}}
		}), "resources[0].url"},
		{"repository mount path 4096", create(repo(sessions.RepositoryResourceParam{MountPath: "/" + rep(4095)})), ""},
		{"repository mount path 4097", create(repo(sessions.RepositoryResourceParam{MountPath: "/" + rep(4096)})), "resources[0].mount_path"},
		{"token 4096", create(repo(sessions.RepositoryResourceParam{AuthorizationToken: param.Secret(rep(4096))})), ""},
		{"token 4097", create(repo(sessions.RepositoryResourceParam{AuthorizationToken: param.Secret(rep(4097))})), "resources[0].authorization_token"},
		{"branch 255", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.BranchCheckout{Name: rep(255)}})), ""},
		{"branch 256", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.BranchCheckout{Name: rep(256)}})), "resources[0].checkout.name"},
		{"branch empty", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.BranchCheckout{}})), "resources[0].checkout.name"},
		{"sha 6", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: rep(6)}})), "resources[0].checkout.sha"},
		{"sha 7", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: rep(7)}})), ""},
		{"sha 64", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: rep(64)}})), ""},
		{"sha 65", create(repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: rep(65)}})), "resources[0].checkout.sha"},
		{"instructions 4096", create(func(p *sessions.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID, Instructions: rep(4096)}}
		}), ""},
		{"instructions 4097", create(func(p *sessions.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID, Instructions: rep(4097)}}
		}), "resources[0].instructions"},
		{"memory_store_id missing", create(func(p *sessions.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{}}
		}), "resources[0].memory_store_id"},

		{"vault_ids 50", create(func(p *sessions.CreateParams) { p.VaultIDs = fifty }), ""},
		{"vault_ids 51", create(func(p *sessions.CreateParams) { p.VaultIDs = madeUpVaultIDs(51) }), "vault_ids"},

		{"budget 1", create(budget(money.USD(1))), ""},
		{"budget 0", create(budget(money.USD(0))), "budget.max_list_cost.amount"},
		{"budget 18 digits", create(budget(money.Money{Amount: "999999999999999999", Currency: "USD"})), ""},
		{"budget 19 digits", create(budget(money.Money{Amount: "1000000000000000000", Currency: "USD"})), "budget.max_list_cost.amount"},
		{"budget leading zero", create(budget(money.Money{Amount: "0100", Currency: "USD"})), "budget.max_list_cost.amount"},
		{"budget not a number", create(budget(money.Money{Amount: "25.00", Currency: "USD"})), "budget.max_list_cost.amount"},
		{"budget currency form", create(budget(money.Money{Amount: "100", Currency: "usd"})), "budget.max_list_cost.currency"},

		{"initial_events 50", create(events(messages(50)...)), ""},
		{"initial_events 51", create(events(messages(51)...)), "initial_events"},
		{"event nil", create(events(nil)), "initial_events[0]"},
		{"message without content", create(events(sessions.UserMessage())), "initial_events[0].content"},
		{"empty text", create(events(sessions.UserMessage("a"), sessions.UserMessage("b", ""))), "initial_events[1].content[1].text"},
		{"nil block", create(events(sessions.UserMessageParam{Content: []sessions.ContentBlockParam{nil}})), "initial_events[0].content[0]"},
		{"system after user", create(events(sessions.UserMessage("a"), sessions.SystemMessage("s"))), ""},
		{"system alone", create(events(sessions.SystemMessage("s"))), "initial_events[0]"},
		{"system not last", create(events(sessions.UserMessage("a"), sessions.SystemMessage("s"), sessions.UserMessage("b"))), "initial_events[1]"},
		{"two systems", create(events(sessions.UserMessage("a"), sessions.SystemMessage("s"), sessions.SystemMessage("t"))), "initial_events[1]"},
		{"system after outcome", create(events(sessions.DefineOutcome("d", sessions.TextRubric("r")), sessions.SystemMessage("s"))), "initial_events[1]"},
		{"system empty text", create(events(sessions.UserMessage("a"), sessions.SystemMessage(""))), "initial_events[1].content[0].text"},
		{"outcome description", create(outcome(sessions.DefineOutcome("", sessions.TextRubric("r")))), "initial_events[0].description"},
		{"outcome rubric missing", create(outcome(sessions.DefineOutcome("d", nil))), "initial_events[0].rubric"},
		{"rubric 262144", create(outcome(sessions.DefineOutcome("d", sessions.TextRubric(rep(262144))))), ""},
		{"rubric 262145", create(outcome(sessions.DefineOutcome("d", sessions.TextRubric(rep(262145))))), "initial_events[0].rubric.content"},
		{"file rubric", create(outcome(sessions.DefineOutcome("d", sessions.FileRubric(fileID)))), ""},
		{"file rubric without id", create(outcome(sessions.DefineOutcome("d", sessions.FileRubric("")))), "initial_events[0].rubric.file_id"},
		{"max_iterations 20", create(outcome(sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 20})), ""},
		{"max_iterations 21", create(outcome(sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 21})), "initial_events[0].max_iterations"},
		{"max_iterations -1", create(outcome(sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: -1})), "initial_events[0].max_iterations"},
	})
}

func TestUpdateAndListLimits(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	file, err := f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: fileID})
	require.NoError(t, err)
	update := func(p sessions.UpdateParams) func() error {
		return func() error { _, err := f.client.Sessions.Update(ctx, s.ID, p); return err }
	}
	list := func(p sessions.ListParams) func() error {
		return func() error { _, err := f.client.Sessions.List(ctx, p); return err }
	}
	listResources := func(limit int) func() error {
		return func() error {
			_, err := f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{Limit: limit})
			return err
		}
	}
	add := func(p sessions.FileResourceParam) func() error {
		return func() error { _, err := f.client.Sessions.Resources.Add(ctx, s.ID, p); return err }
	}
	rotate := func(tok string) func() error {
		return func() error {
			_, err := f.client.Sessions.Resources.Update(ctx, s.ID, file.ID, sessions.ResourceUpdateParams{AuthorizationToken: param.Secret(tok)})
			return err
		}
	}
	runLimitCases(t, f, []limitCase{
		{"title 500", update(sessions.UpdateParams{Title: param.Value(rep(500))}), ""},
		{"title 501", update(sessions.UpdateParams{Title: param.Value(rep(501))}), "title"},
		{"title empty", update(sessions.UpdateParams{Title: param.Value("")}), "title"},
		{"metadata patch 17 values", update(sessions.UpdateParams{Metadata: func() map[string]*string {
			m := map[string]*string{}
			for k, v := range pairs(17) {
				m[k] = &v
			}
			return m
		}()}), "metadata"},
		{"metadata patch value 513", update(sessions.UpdateParams{Metadata: map[string]*string{"k": new(rep(513))}}), "metadata.k"},
		// budget 0 on update is no local rule: the API refuses it
		// (TestBudgetNotRaised).
		{"budget 19 digits", update(sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.Money{Amount: "1000000000000000000", Currency: "USD"}))}), "budget.max_list_cost.amount"},
		{"agent tools 129", update(sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: make([]agents.Tool, 129)}}), "agent.tools"},
		{"agent tool nil", update(sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{nil}}}), "agent.tools[0]"},

		{"list limit 100", list(sessions.ListParams{Limit: 100}), ""},
		{"list limit 101", list(sessions.ListParams{Limit: 101}), "limit"},
		{"agent_version without agent_id", list(sessions.ListParams{AgentVersion: 1}), "agent_version"},
		{"agent_version 0 is not sent", list(sessions.ListParams{AgentID: f.agent.ID}), ""},
		{"agent_version negative", list(sessions.ListParams{AgentID: f.agent.ID, AgentVersion: -1}), "agent_version"},

		{"resources limit 1000", listResources(1000), ""},
		{"resources limit 1001", listResources(1001), "limit"},
		{"resources limit negative", listResources(-1), "limit"},

		{"add file_id 129", add(sessions.FileResourceParam{FileID: "file_" + rep(124)}), "file_id"},
		{"add mount path 4097", add(sessions.FileResourceParam{FileID: "file_04", MountPath: "/" + rep(4096)}), "mount_path"},
		{"add mount path 4096", add(sessions.FileResourceParam{FileID: "file_04", MountPath: "/" + rep(4095)}), ""},
		{"token missing", rotate(""), "authorization_token"},
		{"token 4097", rotate(rep(4097)), "authorization_token"},
	})

	t.Run("path ids must not be empty", func(t *testing.T) {
		before := f.sent()
		_, err := f.client.Sessions.Get(ctx, "")
		reftest.RequireLocal(t, err, "session_id")
		_, err = f.client.Sessions.Resources.Get(ctx, s.ID, "")
		reftest.RequireLocal(t, err, "resource_id")
		require.Equal(t, before, f.sent())
	})
}

// TestServerSideRules checks rules only the server can judge (enum values,
// references): they come back as typed errors naming the field.
func TestServerSideRules(t *testing.T) {
	f := newFixture(t)
	create := func(edit func(*sessions.CreateParams)) error {
		p := f.params()
		edit(&p)
		_, err := f.client.Sessions.Create(ctx, p)
		return err
	}
	err := create(func(p *sessions.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.New(100, "EUR")} })
	reftest.RequireInvalid(t, err, "budget.max_list_cost.currency: must be one of `USD`")

	err = create(func(p *sessions.CreateParams) {
		p.InitialEvents = []sessions.EventParam{sessions.UserMessageParam{Content: []sessions.ContentBlockParam{
			sessions.UnknownContentBlockParam{Type: "image", JSON: json.RawMessage(`{"type":"image","source":{"type":"url","url":"https://x"}}`)},
		}}}
	})
	reftest.RequireInvalid(t, err, "initial_events[0].content[0].type: must be one of `text`")

	// A vault id's prefix is checked locally too (badinput_test.go).
	err = create(func(p *sessions.CreateParams) { p.VaultIDs = []string{"vault_1"} })
	reftest.RequireLocal(t, err, "vault_ids[0]")

	err = create(func(p *sessions.CreateParams) {
		p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: "memstore_011CZkZHQx2kDer6mcTUjWoA"}}
	})
	reftest.RequireNotFound(t, err, "Memory store `memstore_011CZkZHQx2kDer6mcTUjWoA` not found.")

	store := f.newStore(t, "old", "")
	_, err = f.client.MemoryStores.Archive(ctx, store.ID)
	require.NoError(t, err)
	err = create(func(p *sessions.CreateParams) {
		p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID}}
	})
	reftest.RequireInvalid(t, err, "is archived")

	live := f.newStore(t, "live", "")
	err = create(func(p *sessions.CreateParams) {
		p.Resources = []sessions.ResourceParam{sessions.MemoryStoreResourceParam{MemoryStoreID: live.ID, Access: "write_only"}}
	})
	reftest.RequireInvalid(t, err, "resources[0].access")

	err = create(func(p *sessions.CreateParams) {
		p.Resources = []sessions.ResourceParam{sessions.FileResourceParam{FileID: fileID, MountPath: "/a"}, sessions.FileResourceParam{FileID: "file_02", MountPath: "/a"}}
	})
	reftest.RequireInvalid(t, err, "resources[1].mount_path: duplicate mount path `/a`")

	_, err = f.client.Sessions.Get(ctx, "sesn_011CZkZAtmR3yMPDzynEDxu7")
	reftest.RequireNotFound(t, err, "Session `sesn_011CZkZAtmR3yMPDzynEDxu7` not found.")
}
