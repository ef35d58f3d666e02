package environments_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/option"
)

func decodeEnvironment(data []byte) (environments.Environment, error) {
	var e environments.Environment
	err := json.Unmarshal(data, &e)
	return e, err
}

// TestServerResponsesRoundTrip: every environment the reference server
// sends, in every config and networking variant, encodes back to the
// server's JSON and decodes again to an equal value.
func TestServerResponsesRoundTrip(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	create(t, client, environments.CreateParams{Name: "limited", Description: "d", Metadata: map[string]string{"k": "v"},
		Config: environments.CloudConfig{
			Networking: environments.LimitedNetworking{AllowedHosts: []string{"api.example.com"}, AllowPackageManagers: new(true)},
			Packages:   &environments.Packages{Pip: []string{"pandas"}},
		}})
	create(t, client, environments.CreateParams{Name: "default"})
	local := create(t, client, environments.CreateParams{Name: "local", Config: environments.SelfHostedConfig{}})
	_, err := client.Environments.Archive(ctx, local.ID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/environments", nil, &page,
		option.WithBeta("managed-agents-2026-04-01"), option.WithQuery("include_archived", "true")))
	require.Len(t, page.Data, 3)
	seen := map[string]bool{}
	for _, raw := range page.Data {
		var one []byte
		var e environments.Environment
		require.NoError(t, json.Unmarshal(raw, &e))
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/environments/"+e.ID, nil, &one, option.WithBeta("managed-agents-2026-04-01")))
		for _, data := range [][]byte{raw, one} {
			e, ok := wiretest.RoundTrip(t, data, decodeEnvironment, true)
			require.True(t, ok, "%s", data)
			switch c := e.Config.(type) {
			case environments.CloudConfig:
				seen["cloud"] = true
				seen[map[bool]string{true: "packages"}[c.Packages != nil]] = true
				switch c.Networking.(type) {
				case environments.LimitedNetworking:
					seen["limited"] = true
				case environments.UnrestrictedNetworking:
					seen["unrestricted"] = true
				}
			case environments.SelfHostedConfig:
				seen["self_hosted"] = true
			}
		}
	}
	for _, want := range []string{"cloud", "packages", "limited", "unrestricted", "self_hosted"} {
		require.True(t, seen[want], "no response had %s", want)
	}
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."),
		environments.Environment{}, environments.CloudConfig{}, environments.SelfHostedConfig{},
		environments.UnrestrictedNetworking{}, environments.LimitedNetworking{}, environments.Packages{},
		environments.Work{}, environments.WorkData{}, environments.Heartbeat{}, environments.QueueStats{})
}
