package environments_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
)

var ctx = context.Background()

var ignoreServerFields = cmpopts.IgnoreFields(environments.Environment{}, "ID", "CreatedAt", "UpdatedAt", "ArchivedAt")

func emptyPackages() *environments.Packages {
	return &environments.Packages{Apt: []string{}, Cargo: []string{}, Gem: []string{}, Go: []string{}, Npm: []string{}, Pip: []string{}}
}

func requireStatus(t *testing.T, err error, status int, message string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode, apiErr.Message)
	require.Equal(t, message, apiErr.Message)
}

func create(t *testing.T, client *agentplatform.Client, p environments.CreateParams) *environments.Environment {
	t.Helper()
	e, err := client.Environments.Create(ctx, p)
	require.NoError(t, err)
	return e
}

func TestCreateDefaults(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	e := create(t, client, environments.CreateParams{Name: "plain"})
	want := &environments.Environment{
		Type: "environment", Name: "plain", Scope: environments.ScopeOrganization, Metadata: map[string]string{},
		Config: environments.CloudConfig{Networking: environments.UnrestrictedNetworking{}, Packages: emptyPackages()},
	}
	require.Empty(t, cmp.Diff(want, e, ignoreServerFields))
	require.Regexp(t, `^env_`, e.ID)
	require.False(t, e.Archived())

	got, err := client.Environments.Get(ctx, e.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(e, got))

	sh := create(t, client, environments.CreateParams{Name: "mine", Description: "on prem", Config: environments.SelfHostedConfig{},
		Scope: environments.ScopeOrganization, Metadata: map[string]string{"k": "v"}})
	require.Equal(t, environments.SelfHostedConfig{}, sh.Config)
	require.Equal(t, "on prem", sh.Description)
	require.Equal(t, map[string]string{"k": "v"}, sh.Metadata)
}

func TestLimitedNetworkingAndPackages(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	e := create(t, client, environments.CreateParams{Name: "data", Config: environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowedHosts: []string{"api.example.com"}, AllowPackageManagers: new(true)},
		Packages:   &environments.Packages{Pip: []string{"pandas", "numpy==2.0"}},
	}})
	pk := emptyPackages()
	pk.Pip = []string{"pandas", "numpy==2.0"}
	require.Empty(t, cmp.Diff(environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowedHosts: []string{"api.example.com"}, AllowMCPServers: new(false), AllowPackageManagers: new(true)},
		Packages:   pk,
	}, e.Config))

	// Update merges: limited fields not sent are kept, as are the packages.
	u, err := client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowMCPServers: new(true)},
	}})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowedHosts: []string{"api.example.com"}, AllowMCPServers: new(true), AllowPackageManagers: new(true)},
		Packages:   pk,
	}, u.Config))

	// A package list sent replaces that list only.
	u, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.CloudConfig{
		Packages: &environments.Packages{Apt: []string{"jq"}},
	}})
	require.NoError(t, err)
	pk.Apt = []string{"jq"}
	require.Empty(t, cmp.Diff(pk, u.Config.(environments.CloudConfig).Packages))

	// Turning package managers off while packages are listed is refused by
	// the server (the SDK cannot see the stored packages).
	_, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowPackageManagers: new(false)},
	}})
	requireStatus(t, err, http.StatusBadRequest, "config.networking.allow_package_managers: must be true when packages are specified")

	// Another networking type replaces the limited one.
	u, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.CloudConfig{
		Networking: environments.UnrestrictedNetworking{},
	}})
	require.NoError(t, err)
	require.Equal(t, environments.UnrestrictedNetworking{}, u.Config.(environments.CloudConfig).Networking)
	u, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.CloudConfig{
		Networking: environments.LimitedNetworking{AllowPackageManagers: new(true)},
	}})
	require.NoError(t, err)
	require.Equal(t, environments.LimitedNetworking{AllowedHosts: []string{}, AllowMCPServers: new(false), AllowPackageManagers: new(true)},
		u.Config.(environments.CloudConfig).Networking, "a new limited networking starts from the defaults")

	// Local refusal on create: packages under limited networking need
	// package managers.
	before := len(env.Server.Requests())
	_, err = client.Environments.Create(ctx, environments.CreateParams{Name: "x", Config: environments.CloudConfig{
		Networking: environments.LimitedNetworking{}, Packages: &environments.Packages{Npm: []string{"left-pad"}},
	}})
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "config.networking.allow_package_managers", verr.Field)
	require.Len(t, env.Server.Requests(), before)
}

func TestTypeCannotChange(t *testing.T) {
	client := reftest.New(t).Client(t)
	e := create(t, client, environments.CreateParams{Name: "c"})
	_, err := client.Environments.Update(ctx, e.ID, environments.UpdateParams{Config: environments.SelfHostedConfig{}})
	requireStatus(t, err, http.StatusBadRequest, "config.type: cannot change the environment type")
	sh := create(t, client, environments.CreateParams{Name: "s", Config: environments.SelfHostedConfig{}})
	_, err = client.Environments.Update(ctx, sh.ID, environments.UpdateParams{Config: environments.CloudConfig{}})
	requireStatus(t, err, http.StatusBadRequest, "config.type: cannot change the environment type")
	_, err = client.Environments.Update(ctx, sh.ID, environments.UpdateParams{Config: environments.SelfHostedConfig{}})
	require.NoError(t, err)
}

func TestUpdateFields(t *testing.T) {
	client := reftest.New(t).Client(t)
	e := create(t, client, environments.CreateParams{Name: "a", Description: "first", Metadata: map[string]string{"x": "1", "y": "2"}})
	u, err := client.Environments.Update(ctx, e.ID, environments.UpdateParams{
		Name:     "b",
		Metadata: map[string]*string{"x": nil, "y": new(""), "z": new("3")},
	})
	require.NoError(t, err)
	require.Equal(t, "b", u.Name)
	require.Equal(t, "first", u.Description, "omitted fields are kept")
	require.Equal(t, map[string]string{"z": "3"}, u.Metadata, "nil and \"\" delete keys")
	require.True(t, u.UpdatedAt.After(e.UpdatedAt) || u.UpdatedAt.Equal(e.UpdatedAt))

	u, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Description: param.Null[string]()})
	require.NoError(t, err)
	require.Empty(t, u.Description)

	_, err = client.Environments.Update(ctx, e.ID, environments.UpdateParams{Scope: environments.ScopeAccount})
	requireStatus(t, err, http.StatusBadRequest, "scope: `account` is not supported for API organizations")
}

func TestArchiveAndDelete(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	keep := create(t, client, environments.CreateParams{Name: "keep"})
	gone := create(t, client, environments.CreateParams{Name: "gone"})

	archived, err := client.Environments.Archive(ctx, gone.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	again, err := client.Environments.Archive(ctx, gone.ID)
	require.NoError(t, err)
	require.Equal(t, archived, again, "archiving is idempotent")

	_, err = client.Environments.Update(ctx, gone.ID, environments.UpdateParams{Name: "back"})
	requireStatus(t, err, http.StatusConflict, "environment_id: environment `"+gone.ID+"` is archived")

	names := func(p environments.ListParams) []string {
		var out []string
		for e, err := range client.Environments.All(ctx, p) {
			require.NoError(t, err)
			out = append(out, e.Name)
		}
		return out
	}
	require.Equal(t, []string{"keep"}, names(environments.ListParams{}))
	require.Equal(t, []string{"gone", "keep"}, names(environments.ListParams{IncludeArchived: true}))

	require.NoError(t, client.Environments.Delete(ctx, gone.ID))
	_, err = client.Environments.Get(ctx, gone.ID)
	requireStatus(t, err, http.StatusNotFound, "Environment `"+gone.ID+"` not found.")
	require.ErrorIs(t, client.Environments.Delete(ctx, gone.ID), apierror.ErrNotFound)
	require.NoError(t, client.Environments.Delete(ctx, keep.ID), "active environments can be deleted too")
	require.Empty(t, names(environments.ListParams{IncludeArchived: true}))
}

func TestPagination(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	for i := range 5 {
		create(t, client, environments.CreateParams{Name: string(rune('a' + i))})
	}
	var walked []string
	for e, err := range client.Environments.All(ctx, environments.ListParams{Limit: 2}) {
		require.NoError(t, err)
		walked = append(walked, e.Name)
	}
	require.Len(t, walked, 5)
	require.Equal(t, 3, env.Count(http.MethodGet, "/v1/environments"))
	for range client.Environments.All(ctx, environments.ListParams{Limit: 2}) {
		break
	}
	require.Equal(t, 4, env.Count(http.MethodGet, "/v1/environments"), "stopping early fetches nothing more")
}

func TestEnvironmentsBelongToTheirWorkspace(t *testing.T) {
	env := reftest.New(t)
	other := env.Server.CreateWorkspace("other")
	require.NoError(t, env.Server.GrantAPIAccess(env.Seed.UserID, other))
	e := create(t, env.Client(t), environments.CreateParams{Name: "mine"})
	_, err := env.Client(t, option.WithWorkspaceID(other)).Environments.Get(ctx, e.ID)
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

func TestLocalValidation(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	meta := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[strings.Repeat("k", i+1)] = "v"
		}
		return m
	}
	cases := []struct {
		name   string
		params environments.CreateParams
		field  string
	}{
		{"name 256", environments.CreateParams{Name: strings.Repeat("n", 256)}, ""},
		{"name 257", environments.CreateParams{Name: strings.Repeat("n", 257)}, "name"},
		{"name empty", environments.CreateParams{}, "name"},
		{"description 1024", environments.CreateParams{Name: "n", Description: strings.Repeat("d", 1024)}, ""},
		{"description 1025", environments.CreateParams{Name: "n", Description: strings.Repeat("d", 1025)}, "description"},
		{"hosts 100", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Networking: environments.LimitedNetworking{
			AllowedHosts: hosts(100)}}}, ""},
		{"hosts 101", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Networking: environments.LimitedNetworking{
			AllowedHosts: hosts(101)}}}, "config.networking.allowed_hosts"},
		{"packages 100", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Packages: &environments.Packages{Pip: hosts(100)}}}, ""},
		{"packages 101", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Packages: &environments.Packages{Pip: hosts(101)}}},
			"config.packages.pip"},
		{"package spec 257", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Packages: &environments.Packages{
			Go: []string{strings.Repeat("p", 257)}}}}, "config.packages.go[0]"},
		{"package spec empty", environments.CreateParams{Name: "n", Config: environments.CloudConfig{Packages: &environments.Packages{
			Apt: []string{""}}}}, "config.packages.apt[0]"},
		{"metadata 16", environments.CreateParams{Name: "n", Metadata: meta(16)}, ""},
		{"metadata 17", environments.CreateParams{Name: "n", Metadata: meta(17)}, "metadata"},
		{"metadata key empty", environments.CreateParams{Name: "n", Metadata: map[string]string{"": "v"}}, "metadata"},
		{"metadata value 513", environments.CreateParams{Name: "n", Metadata: map[string]string{"k": strings.Repeat("v", 513)}}, "metadata.k"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.Server.Requests())
			_, err := client.Environments.Create(ctx, tc.params)
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var verr *apierror.ValidationError
			require.ErrorAs(t, err, &verr)
			require.Equal(t, tc.field, verr.Field, verr.Rule)
			require.Len(t, env.Server.Requests(), before, "nothing is sent")
		})
	}
	before := len(env.Server.Requests())
	_, err := client.Environments.Update(ctx, "env_x", environments.UpdateParams{Name: strings.Repeat("n", 257)})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = client.Environments.Update(ctx, "env_x", environments.UpdateParams{Description: param.Value(strings.Repeat("d", 1025))})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = client.Environments.List(ctx, environments.ListParams{Limit: 1001})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	err = client.Environments.Delete(ctx, "")
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.Len(t, env.Server.Requests(), before)
	_, err = client.Environments.List(ctx, environments.ListParams{Limit: 1000})
	require.NoError(t, err)
}

func hosts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "h" + strings.Repeat("x", i) + ".example"
	}
	return out
}

func TestUnionsRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		v    environments.Config
		want string
	}{
		{"cloud empty", environments.CloudConfig{}, `{"type":"cloud"}`},
		{"self hosted", environments.SelfHostedConfig{}, `{"type":"self_hosted"}`},
		{"cloud full", environments.CloudConfig{
			Networking: environments.LimitedNetworking{AllowedHosts: []string{"a.com"}, AllowMCPServers: new(false)},
			Packages:   &environments.Packages{Cargo: []string{"serde"}, Gem: []string{}},
		}, `{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a.com"],"allow_mcp_servers":false},
			"packages":{"type":"packages","cargo":["serde"],"gem":[]}}`},
		{"unrestricted", environments.CloudConfig{Networking: environments.UnrestrictedNetworking{}}, `{"type":"cloud","networking":{"type":"unrestricted"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
		})
	}

	for _, in := range []string{
		`{"type":"kubernetes","cluster":"c1"}`,
		`{"type":"cloud","networking":{"type":"vpn","peer":"p"},"packages":{"type":"packages","apt":[],"cargo":[],"gem":[],"go":[],"npm":[],"pip":["x"]}}`,
	} {
		var e environments.Environment
		require.NoError(t, json.Unmarshal([]byte(`{"type":"environment","id":"env_1","config":`+in+`}`), &e))
		out, err := json.Marshal(e.Config)
		require.NoError(t, err)
		require.JSONEq(t, in, string(out), "unknown variants marshal back unchanged")
	}
	var e environments.Environment
	require.NoError(t, json.Unmarshal([]byte(`{"config":{"type":"kubernetes"}}`), &e))
	require.Equal(t, "kubernetes", e.Config.(environments.UnknownConfig).Type)
	require.NoError(t, json.Unmarshal([]byte(`{"config":{"type":"cloud","networking":{"type":"vpn"}}}`), &e))
	require.Equal(t, "vpn", e.Config.(environments.CloudConfig).Networking.(environments.UnknownNetworking).Type)
}
