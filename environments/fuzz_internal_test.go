package environments

import (
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// decoder decodes a union T with the package's union decoders.
func decoder[T any](data []byte) (T, error) {
	var v T
	err := wire.Unmarshal(data, &v, unions)
	return v, err
}

func environment(data []byte) (Environment, error) {
	var e Environment
	err := json.Unmarshal(data, &e)
	return e, err
}

// Seeds, as the API and docs/managed-agents-wire.md section 5 show them,
// and types newer than this SDK.
var (
	configSeeds = []string{
		`{"type": "cloud", "networking": {"type": "limited", "allowed_hosts": ["api.example.com"], "allow_mcp_servers": false, "allow_package_managers": true}, "packages": {"type": "packages", "apt": [], "cargo": [], "gem": [], "go": [], "npm": [], "pip": ["pandas", "numpy"]}}`,
		`{"type":"cloud","networking":{"type":"unrestricted"},"packages":null}`,
		`{"type":"self_hosted"}`,
		`{"type":"self_hosted","region":"eu"}`,
		`{"type":"gpu_cluster","nodes":4}`,
		`null`,
	}
	networkingSeeds = []string{
		`{"type":"limited","allowed_hosts":null}`,
		`{"type":"limited","allowed_hosts":["a.example"],"allow_mcp_servers":true,"allow_package_managers":false,"proxy":"p"}`,
		`{"type":"unrestricted"}`,
		`{"type":"vpc","id":"vpc_1"}`,
	}
	environmentSeeds = []string{
		`{"type":"environment","id":"env_011CZkZ9X2dpNyB7HsEFoRfW","name":"python-data-analysis","description":"Python environment with data-analysis packages.",` +
			`"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["api.example.com"],"allow_mcp_servers":false,"allow_package_managers":true},` +
			`"packages":{"type":"packages","apt":[],"cargo":[],"gem":[],"go":[],"npm":[],"pip":["pandas","numpy"]}},"scope":"organization","metadata":{},` +
			`"archived_at":null,"created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}`,
		`{"type":"environment","id":"env_2","name":"local","description":null,"config":{"type":"self_hosted"},"scope":"account","metadata":{"k":"v"},"archived_at":"2026-03-16T00:00:00Z","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z","region":{"a":[1]}}`,
	}
)

func fuzz[T any](f *testing.F, seeds []string, decode func([]byte) (T, error)) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { wiretest.RoundTrip(t, data, decode, false) })
}

// The fuzz targets check decode → encode → decode for each entry point of
// the package's JSON: an Environment, and the two unions it holds.
func FuzzEnvironmentRoundTrip(f *testing.F) { fuzz(f, environmentSeeds, environment) }
func FuzzConfigRoundTrip(f *testing.F)      { fuzz(f, configSeeds, decoder[Config]) }
func FuzzNetworkingRoundTrip(f *testing.F)  { fuzz(f, networkingSeeds, decoder[Networking]) }

// TestSeedsRoundTripExactly: the seeds are the API's spelling, so their
// encoding is the JSON they came from, and each variant is met.
func TestSeedsRoundTripExactly(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range environmentSeeds {
		wiretest.RoundTrip(t, []byte(s), environment, true)
	}
	for _, s := range configSeeds {
		c, ok := wiretest.RoundTrip(t, []byte(s), decoder[Config], true)
		if !ok {
			t.Fatalf("seed does not decode: %s", s)
		}
		seen[kind(c)] = true
	}
	for _, s := range networkingSeeds {
		n, ok := wiretest.RoundTrip(t, []byte(s), decoder[Networking], true)
		if !ok {
			t.Fatalf("seed does not decode: %s", s)
		}
		seen[kind(n)] = true
	}
	for _, want := range []string{"UnknownConfig", "UnknownNetworking", "CloudConfig", "SelfHostedConfig", "LimitedNetworking", "UnrestrictedNetworking"} {
		if !seen[want] {
			t.Errorf("no seed decodes to %s", want)
		}
	}
}

func kind(v any) string {
	switch v.(type) {
	case CloudConfig:
		return "CloudConfig"
	case SelfHostedConfig:
		return "SelfHostedConfig"
	case UnknownConfig:
		return "UnknownConfig"
	case LimitedNetworking:
		return "LimitedNetworking"
	case UnrestrictedNetworking:
		return "UnrestrictedNetworking"
	case UnknownNetworking:
		return "UnknownNetworking"
	}
	return "nil"
}
