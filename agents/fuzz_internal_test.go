package agents

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/union/uniontest"
)

// unmarshal decodes a type with its own UnmarshalJSON.
func unmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// toolInput decodes data as the input of the built-in tool named by its
// first byte (its index in toolNames), the rest being the input.
func toolInput(data []byte) (ToolInput, error) {
	if len(data) == 0 {
		return DecodeToolInput(ToolBash, nil)
	}
	return DecodeToolInput(toolNames[int(data[0])%len(toolNames)], data[1:])
}

var toolNames = []ToolName{ToolBash, ToolEdit, ToolRead, ToolWrite, ToolGlob, ToolGrep, ToolWebFetch, "computer_20270101"}

// unionChecks are the union decoders of the package and the Agent that
// holds them, by the kind byte of FuzzDecodeUnion.
var unionChecks = []func(*testing.T, []byte){
	uniontest.Decoder[Tool]{Decode: decodeTool}.Check,
	uniontest.Decoder[Skill]{Decode: decodeSkill}.Check,
	uniontest.Decoder[ExecutionIdentity]{Decode: decodeExecutionIdentity}.Check,
	uniontest.Decoder[Multiagent]{Decode: decodeMultiagent, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[RosterEntry]{Decode: decodeRosterEntry}.Check,
	uniontest.Decoder[Advisor]{Decode: decodeAdvisor, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[Delegation]{Decode: decodeDelegation, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[ModelConfig]{Decode: unmarshal[ModelConfig]}.Check,
	uniontest.Decoder[Agent]{Decode: unmarshal[Agent]}.Check,
	checkToolInput,
}

// checkToolInput: a tool input decodes only from JSON, an input without a
// typed form is kept byte for byte, and every input marshals back to JSON
// that decodes to the same input.
func checkToolInput(t *testing.T, data []byte) {
	in, err := toolInput(data)
	if err != nil {
		return
	}
	input := data[min(1, len(data)):]
	if len(input) > 0 && !json.Valid(input) {
		t.Fatalf("%s input decoded from invalid JSON %q", in.ToolName(), input)
	}
	if u, ok := in.(UnknownToolInput); ok && !bytes.Equal(u.JSON, input) {
		t.Fatalf("%s input kept as %q, want %q", u.Name, u.JSON, input)
	}
	name := in.ToolName()
	uniontest.RoundTrip(t, in, func(b []byte) (ToolInput, error) { return DecodeToolInput(name, b) })
}

// FuzzDecodeUnion checks the agent's unions (tools and their configs,
// skills, execution identities, the multi-agent configuration, its roster
// entries, advisor and delegations), the model config, the Agent that
// holds them, and the built-in tool inputs: no panic, no value from
// invalid JSON, unknown types kept byte for byte, and a stable round trip
// through json.Marshal (see uniontest).
func FuzzDecodeUnion(f *testing.F) {
	const (
		tool = iota
		skill
		identity
		multiagent
		rosterEntry
		advisor
		delegation
		model
		agent
		toolInput
	)
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		// Tools, as docs/managed-agents-wire.md 4.1 shows them.
		{tool, `{"type": "agent_toolset_20260401", "configs": [{"type": "bash", "name": "bash", "enabled": true, "permission_policy": {"type": "always_ask"}}, {"type": "web_fetch", "name": "web_fetch", "enabled": true, "permission_policy": {"type": "always_allow"}, "allowed_domains": ["docs.example.com"], "blocked_domains": null, "max_content_tokens": null}], "default_config": {"enabled": true, "permission_policy": {"type": "always_allow"}}}`},
		{tool, `{"type":"agent_toolset_20260401","configs":[{"name":"web_search","enabled":true,"permission_policy":{"type":"auto"},"allowed_domains":["a.com"],"user_location":{"type":"approximate","country":"US","city":"Paris","timezone":"Europe/Paris"}}],"default_config":{"enabled":false}}`},
		{tool, `{"type": "mcp_toolset", "mcp_server_name": "example-mcp", "configs": [{"name":"t","permission_policy":{"type":"always_ask"}}], "default_config": {"enabled": true, "permission_policy": {"type": "always_ask"}}}`},
		{tool, `{"type": "custom", "name": "lookup_order", "description": "Look up an order by id.", "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}`},
		{tool, `{"type": "custom", "name": "t", "description": "d", "input_schema": {"type": "object", "$defs": {"x": {"type": "integer"}}, "additionalProperties": false}}`},
		{tool, `{"type": "computer_20270101", "display": {"w": 1024}}`},
		{tool, `{"name":"no type"}`},
		{skill, `{"type": "vendor", "skill_id": "xlsx", "version": "latest"}`},
		{skill, `{"type": "custom", "skill_id": "skill_011CZkZFNu9hAbo3jZPRgTlx", "version": "2"}`},
		{skill, `{"type": "marketplace", "skill_id": "s", "listing": 7}`},
		{identity, `{"type": "service_account"}`},
		{identity, `{"type":"cloud_role","role_arn":"arn:aws:iam::123456789012:role/agent"}`},
		{identity, `{"type": "workload_identity", "pool": "p"}`},
		{identity, `null`},
		// Multi-agent configurations, as TestUnknownNestedVariants has them.
		{multiagent, `{"type":"coordinator","agents":["agent_1",{"type":"agent","id":"agent_2","version":1},{"type":"self"},{"type":"advisor","model":"m"},{"type":"team","id":"t"}]}`},
		{multiagent, `{"type":"multiagent_20261001","advisor":{"type":"council","models":["a"]},"subagents":{"type":"enabled","inline_agents":{"type":"sometimes"},"predefined_agents":[{"type":"agent","id":"agent_1","version":2},{"type":"clone"}]},"workflows":{"type":"scheduled"}}`},
		{multiagent, `{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"m"},"subagents":{"type":"disabled"},"workflows":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[]}}`},
		{multiagent, `{"type": "swarm_20270101", "size": 9}`},
		{rosterEntry, `"agent_1"`},
		{rosterEntry, `{"type":"self"}`},
		{advisor, `{"type":"disabled"}`},
		{delegation, `{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":[{"type":"self"}]}`},
		{model, `{"id": "vendor-opus-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"}`},
		{model, `"vendor-opus-5-5"`},
		{model, `{"id":"m","effort":"low"}`},
		// An agent, as docs/managed-agents-wire.md 4.1 shows it.
		{agent, `{"type": "agent", "id": "agent_011CZkYpogX7uDKUyvBTophP", "version": 2, "name": "Researcher", "description": "Finds and summarises sources.", "system": "You are a careful research agent.", "model": {"id": "vendor-opus-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"}, "tools": [{"type": "mcp_toolset", "mcp_server_name": "example-mcp", "configs": [], "default_config": {"enabled": true, "permission_policy": {"type": "always_ask"}}}], "mcp_servers": [{"type": "url", "name": "example-mcp", "url": "https://mcp.example.com/sse"}], "skills": [{"type": "vendor", "skill_id": "xlsx", "version": "latest"}], "multiagent": null, "execution_identity": {"type": "service_account"}, "metadata": {"team": "research"}, "archived_at": null, "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-16T09:30:00Z"}`},
		{agent, `{"type":"agent","id":"agent_1","version":1,"name":"n","description":null,"system":null,"model":{"id":"m","effort":{"type":"galactic"},"inference_geo":null,"speed":"warp"},"tools":[],"mcp_servers":[],"skills":[],"multiagent":{"type":"coordinator","agents":[{"type":"self"}]},"execution_identity":{"type":"workload_identity","pool":"p"},"metadata":{},"archived_at":"2026-03-17T00:00:00Z","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}`},
		// Tool inputs: the first byte picks the tool (toolNames).
		{toolInput, "\x00" + `{"command":"ls -la","timeout_ms":5000}`},
		{toolInput, "\x01" + `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`},
		{toolInput, "\x02" + `{"file_path":"/a","view_range":[10,-1]}`},
		{toolInput, "\x03" + `{"file_path":"/a","content":"hi"}`},
		{toolInput, "\x04" + `{"pattern":"**/*.go"}`},
		{toolInput, "\x05" + `{"pattern":"func\\s+main","path":"cmd"}`},
		{toolInput, "\x06" + `{"url":"https://x"}`},
		{toolInput, "\x07" + `{"action":"screenshot"}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		unionChecks[int(kind)%len(unionChecks)](t, data)
	})
}
