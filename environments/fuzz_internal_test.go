package environments

import (
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/union/uniontest"
)

func environment(data []byte) (Environment, error) {
	var e Environment
	err := json.Unmarshal(data, &e)
	return e, err
}

// unionChecks are the union decoders of the package and the Environment
// that holds them, by the kind byte of FuzzDecodeUnion.
var unionChecks = []func(*testing.T, []byte){
	uniontest.Decoder[Config]{Decode: decodeConfig, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[Networking]{Decode: decodeNetworking, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[Environment]{Decode: environment}.Check,
}

// FuzzDecodeUnion checks the config and networking unions and the
// Environment that holds them: no panic, no value from invalid JSON,
// unknown types kept byte for byte, and a stable round trip through
// json.Marshal (see uniontest).
func FuzzDecodeUnion(f *testing.F) {
	const (
		config = iota
		networking
		env
	)
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		// As docs/managed-agents-wire.md section 5 shows them.
		{config, `{"type": "cloud", "networking": {"type": "limited", "allowed_hosts": ["api.example.com"], "allow_mcp_servers": false, "allow_package_managers": true}, "packages": {"type": "packages", "apt": [], "cargo": [], "gem": [], "go": [], "npm": [], "pip": ["pandas", "numpy"]}}`},
		{config, `{"type":"cloud","networking":{"type":"unrestricted"},"packages":null}`},
		{config, `{"type":"self_hosted"}`},
		{config, `{"type":"gpu_cluster","nodes":4}`},
		{networking, `{"type":"limited","allowed_hosts":null}`},
		{networking, `{"type":"vpc","id":"vpc_1"}`},
		{env, `{"type":"environment","id":"env_011CZkZ9X2dpNyB7HsEFoRfW","name":"python-data-analysis","description":"Python environment with data-analysis packages.",` +
			`"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["api.example.com"],"allow_mcp_servers":false,"allow_package_managers":true},` +
			`"packages":{"type":"packages","apt":[],"cargo":[],"gem":[],"go":[],"npm":[],"pip":["pandas","numpy"]}},"scope":"organization","metadata":{},` +
			`"archived_at":null,"created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}`},
		{env, `{"type":"environment","id":"env_2","name":"local","description":null,"config":{"type":"self_hosted"},"scope":"account","metadata":{"k":"v"},"archived_at":"2026-03-16T00:00:00Z"}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		unionChecks[int(kind)%len(unionChecks)](t, data)
	})
}
