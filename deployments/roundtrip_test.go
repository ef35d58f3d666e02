package deployments_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// requireWireEqual checks that out, the SDK's encoding of a value decoded
// from wire, is the same JSON: members may be in any order, a member whose
// value is null may be absent, and timestamps are compared as instants.
func requireWireEqual(t *testing.T, wire, out []byte) {
	t.Helper()
	require.NoError(t, wiretest.SameJSON(wire, out), "wire %s\nSDK  %s", wire, out)
}

// checkWire decodes a response as T, and checks the round trip: the SDK
// writes it back as the wire had it, and that decodes to an equal value.
func checkWire[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(data, &v), "%s", data)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	requireWireEqual(t, data, out)
	var again T
	require.NoError(t, json.Unmarshal(out, &again))
	require.Empty(t, cmp.Diff(v, again, rawEqual))
	return v
}

// seen records which wire types and variants a value holds.
type seen map[string]bool

func (s seen) deployment(d deployments.Deployment) {
	s["Deployment"] = true
	for _, r := range d.Resources {
		s[typeName(r)] = true
	}
	if d.PausedReason != nil {
		s[typeName(d.PausedReason)] = true
		if _, ok := d.PausedReason.(deployments.ErrorPause); ok {
			s["RunError"] = true
		}
	}
	if d.Schedule != nil {
		s["Schedule"] = true
	}
}

func (s seen) run(r deployments.Run) {
	s["Run"] = true
	s[typeName(r.TriggerContext)] = true
	if r.Error != nil {
		s["RunError"] = true
	}
}

func typeName(v any) string { return reflect.TypeOf(v).Name() }

// TestWireRoundTrip drives the reference server so that it returns every
// type and variant of the package, and checks each response, and each
// document of the fuzz corpora, against the round-trip rule.
func TestWireRoundTrip(t *testing.T) {
	f := newFixture(t)
	var rec wiretest.Recorder
	c := f.env.Client(t, rec.Option())

	store, err := c.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "notes"})
	require.NoError(t, err)
	wiki, err := c.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "wiki"})
	require.NoError(t, err)
	full := f.scheduled()
	full.Description = "Compiles yesterday's orders."
	full.InitialEvents = []sessions.EventParam{
		sessions.DefineOutcome("A report exists.", sessions.TextRubric("report.md is present")),
		sessions.UserMessage("Compile yesterday's orders into report.md."),
		sessions.SystemMessage("Be brief."),
	}
	full.Resources = []sessions.ResourceParam{
		sessions.FileResourceParam{FileID: fileID},
		sessions.FileResourceParam{FileID: "file_02", MountPath: "/data/in.csv"},
		sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "ghp_secret", Checkout: sessions.BranchCheckout{Name: "main"}},
		sessions.RepositoryResourceParam{URL: repoURL, Checkout: sessions.CommitCheckout{SHA: "0123456789abcdef0123456789abcdef01234567"}, MountPath: "/src"},
		sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID},
		sessions.MemoryStoreResourceParam{MemoryStoreID: wiki.ID, Access: sessions.AccessReadOnly, Instructions: "Read only."},
	}
	full.VaultIDs = f.newVaults(t, 1)
	full.Budget = &sessions.Budget{MaxListCost: money.USD(2500)}
	full.Metadata = map[string]string{"team": "ops"}
	d, err := c.Deployments.Create(ctx, full)
	require.NoError(t, err)

	doomedEnv := f.newEnvironment(t, "doomed")
	p := f.scheduled()
	p.EnvironmentID = doomedEnv
	doomed, err := c.Deployments.Create(ctx, p)
	require.NoError(t, err)
	_, err = f.client.Environments.Archive(ctx, doomedEnv)
	require.NoError(t, err)

	f.clock.Set(utc(6, 12, 0)) // both fire once; doomed fails and pauses
	_, err = c.Deployments.RunNow(ctx, d.ID)
	require.NoError(t, err)
	_, err = c.Deployments.RunNow(ctx, doomed.ID) // fails, by hand
	require.NoError(t, err)
	_, err = c.Deployments.Pause(ctx, d.ID)
	require.NoError(t, err)
	_, err = c.Deployments.Get(ctx, doomed.ID)
	require.NoError(t, err)
	for _, err := range c.Deployments.Runs.All(ctx, deployments.RunListParams{}) {
		require.NoError(t, err)
	}
	_, err = c.Deployments.Archive(ctx, d.ID)
	require.NoError(t, err)
	for _, err := range c.Deployments.All(ctx, deployments.ListParams{IncludeArchived: true}) {
		require.NoError(t, err)
	}

	got := seen{}
	for _, r := range rec.Bodies() {
		switch {
		case r.Method == http.MethodGet && r.Path == "/v1/deployments":
			for _, item := range pageItems(t, r.Body) {
				got.deployment(checkWire[deployments.Deployment](t, item))
			}
		case r.Method == http.MethodGet && r.Path == "/v1/deployment_runs":
			for _, item := range pageItems(t, r.Body) {
				got.run(checkWire[deployments.Run](t, item))
			}
		case strings.HasPrefix(r.Path, "/v1/deployment_runs/") || strings.HasSuffix(r.Path, "/run"):
			got.run(checkWire[deployments.Run](t, r.Body))
		case strings.HasPrefix(r.Path, "/v1/deployments"):
			got.deployment(checkWire[deployments.Deployment](t, r.Body))
		}
	}
	for _, dir := range []string{"deployment", "run"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, name := range files {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			if dir == "run" {
				got.run(checkWire[deployments.Run](t, data))
			} else {
				got.deployment(checkWire[deployments.Deployment](t, data))
			}
		}
	}
	for _, name := range []string{"Deployment", "Schedule", "ManualPause", "ErrorPause", "UnknownPausedReason",
		"FileResourceConfig", "RepositoryResourceConfig", "MemoryStoreResourceConfig", "UnknownResourceConfig",
		"Run", "RunError", "ScheduleTrigger", "ManualTrigger", "UnknownTrigger"} {
		require.True(t, got[name], "no %s was seen", name)
	}
}

// pageItems returns the items of a list page as sent.
func pageItems(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &page))
	return page.Data
}

// TestWireTypesHaveCodecs: every exported struct with an Extra field has
// its own MarshalJSON and UnmarshalJSON, without which encoding/json would
// write an "Extra" member. The list of such structs is read from the
// package's source, so a new one cannot be forgotten.
func TestWireTypesHaveCodecs(t *testing.T) {
	known := map[string]reflect.Type{}
	for _, v := range []any{deployments.Deployment{}, deployments.Schedule{}, deployments.ManualPause{},
		deployments.ErrorPause{}, deployments.FileResourceConfig{}, deployments.RepositoryResourceConfig{},
		deployments.MemoryStoreResourceConfig{}, deployments.Run{}, deployments.RunError{},
		deployments.ScheduleTrigger{}, deployments.ManualTrigger{}} {
		known[reflect.TypeOf(v).Name()] = reflect.TypeOf(v)
	}
	for _, name := range wiretest.Methods(t, ".") {
		typ, ok := known[name]
		require.True(t, ok, "add %s to this test", name)
		require.True(t, typ.Implements(reflect.TypeFor[json.Marshaler]()), "%s is not a json.Marshaler", name)
		require.True(t, reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()), "*%s is not a json.Unmarshaler", name)
	}
	require.Len(t, known, len(wiretest.Methods(t, ".")), "a type listed here has no Extra field")
}
