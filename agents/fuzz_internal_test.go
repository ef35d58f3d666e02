package agents

import (
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// decoder decodes a union T with the package's union decoders, as a field
// of an Agent is decoded.
func decoder[T any](data []byte) (T, error) {
	var v T
	err := wire.Unmarshal(data, &v, unions)
	return v, err
}

// unmarshal decodes a type with its own UnmarshalJSON.
func unmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

var toolNames = []ToolName{ToolBash, ToolEdit, ToolRead, ToolWrite, ToolGlob, ToolGrep, ToolWebFetch, "computer_20270101"}

// Seeds: the API's spelling of every variant (docs/managed-agents-wire.md
// 4.1 shows several), members and types newer than this SDK, and a few
// request spellings (a bare model id, a bare effort).
var (
	toolSeeds = []string{
		`{"type": "agent_toolset_20260401", "configs": [{"type": "bash", "name": "bash", "enabled": true, "permission_policy": {"type": "always_ask"}}, {"type": "web_fetch", "name": "web_fetch", "enabled": true, "permission_policy": {"type": "always_allow"}, "allowed_domains": ["docs.example.com"], "blocked_domains": null, "max_content_tokens": null}], "default_config": {"enabled": true, "permission_policy": {"type": "always_allow"}}}`,
		`{"type":"agent_toolset_20260401","configs":[{"name":"web_search","enabled":true,"permission_policy":{"type":"auto"},"allowed_domains":["a.com"],"user_location":{"type":"approximate","country":"US","city":"Paris","timezone":"Europe/Paris"}}],"default_config":{"enabled":false}}`,
		`{"type": "mcp_toolset", "mcp_server_name": "example-mcp", "configs": [{"name":"t","permission_policy":{"type":"always_ask"}}], "default_config": {"enabled": true, "permission_policy": {"type": "always_ask"}}}`,
		`{"type": "custom", "name": "lookup_order", "description": "Look up an order by id.", "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}`,
		`{"type": "custom", "name": "t", "description": "d", "input_schema": {"type": "object", "$defs": {"x": {"type": "integer"}}, "additionalProperties": false}}`,
		`{"type": "computer_20270101", "display": {"w": 1024}}`,
		`{"name":"no type"}`,
		`{"type":"agent_toolset_20260401","configs":[{"type":"bash","name":"bash","enabled":true,"permission_policy":{"type":"always_ask","reason":"r"}}],"default_config":{"enabled":true,"permission_policy":{"type":"always_allow"},"audit":true}}`,
		`{"type":"custom","name":"t","description":"d","input_schema":{"type":"object","properties":null,"required":null}}`,
		`{"type":"mcp_toolset","mcp_server_name":"s","configs":[],"default_config":{"enabled":true,"permission_policy":{"type":"always_ask"}},"cache":"on"}`,
	}
	skillSeeds = []string{
		`{"type": "vendor", "skill_id": "xlsx", "version": "latest"}`,
		`{"type": "custom", "skill_id": "skill_011CZkZFNu9hAbo3jZPRgTlx", "version": "2"}`,
		`{"type": "marketplace", "skill_id": "s", "listing": 7}`,
		`{"type":"vendor","skill_id":"pdf","version":"latest","pinned":false}`,
	}
	identitySeeds = []string{
		`{"type": "service_account"}`,
		`{"type":"cloud_role","role_arn":"arn:aws:iam::123456789012:role/agent"}`,
		`{"type": "workload_identity", "pool": "p"}`,
		`null`,
		`{"type":"cloud_role","role_arn":"arn","session_tags":{}}`,
	}
	// rosterAgentSeed is a roster entry as a session holds it: the agent's
	// definition.
	rosterAgentSeed = `{"type":"agent","id":"agent_2","version":1,"name":"h","description":null,"system":"s","model":{"id":"m","effort":{"type":"high"},"inference_geo":null,"speed":"standard"},"tools":[{"type":"custom","name":"t","description":"d","input_schema":{"type":"object","properties":null,"required":null}}],"mcp_servers":[],"skills":[{"type":"vendor","skill_id":"xlsx","version":"latest"}],"execution_identity":{"type":"service_account"},"rank":1}`
	multiagentSeeds = []string{
		`{"type":"coordinator","agents":[` + rosterAgentSeed + `,{"type":"advisor","model":"m"}]}`,
		`{"type":"coordinator","agents":["agent_1",{"type":"agent","id":"agent_2","version":1},{"type":"self"},{"type":"advisor","model":"m"},{"type":"team","id":"t"}]}`,
		`{"type":"multiagent_20261001","advisor":{"type":"council","models":["a"]},"subagents":{"type":"enabled","inline_agents":{"type":"sometimes"},"predefined_agents":[{"type":"agent","id":"agent_1","version":2},{"type":"clone"}]},"workflows":{"type":"scheduled"}}`,
		`{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"m"},"subagents":{"type":"disabled"},"workflows":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[]}}`,
		`{"type": "swarm_20270101", "size": 9}`,
	}
	rosterEntrySeeds = []string{
		`"agent_1"`,
		rosterAgentSeed,
		`{"type":"self"}`,
		`{"type":"agent","id":"agent_1","version":3,"alias":"a"}`,
		`{"type":"advisor","model":"m"}`,
		`{"type":"squad","n":2}`,
	}
	advisorSeeds = []string{
		`{"type":"disabled"}`,
		`{"type":"enabled","model":"vendor-opus-5-5"}`,
		`{"type":"council"}`,
	}
	delegationSeeds = []string{
		`{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[` + rosterAgentSeed + `]}`,
		`{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":[{"type":"self"}]}`,
		`{"type":"disabled"}`,
		`{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":["agent_1",{"type":"agent","id":"agent_2","version":1}]}`,
		`{"type":"sometimes"}`,
	}
	modelSeeds = []string{
		`{"id": "vendor-opus-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"}`,
		`"vendor-opus-5-5"`,
		`{"id":"m","effort":"low"}`,
	}
	agentSeeds = []string{
		`{"type": "agent", "id": "agent_011CZkYpogX7uDKUyvBTophP", "version": 2, "name": "Researcher", "description": "Finds and summarises sources.", "system": "You are a careful research agent.", "model": {"id": "vendor-opus-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"}, "tools": [{"type": "mcp_toolset", "mcp_server_name": "example-mcp", "configs": [], "default_config": {"enabled": true, "permission_policy": {"type": "always_ask"}}}], "mcp_servers": [{"type": "url", "name": "example-mcp", "url": "https://mcp.example.com/sse"}], "skills": [{"type": "vendor", "skill_id": "xlsx", "version": "latest"}], "multiagent": null, "execution_identity": {"type": "service_account"}, "metadata": {"team": "research"}, "archived_at": null, "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-16T09:30:00Z"}`,
		`{"type":"agent","id":"agent_1","version":1,"name":"n","description":null,"system":null,"model":{"id":"m","effort":{"type":"galactic"},"inference_geo":null,"speed":"warp"},"tools":[],"mcp_servers":[],"skills":[],"multiagent":{"type":"coordinator","agents":[{"type":"self"}]},"execution_identity":{"type":"workload_identity","pool":"p"},"metadata":{},"archived_at":"2026-03-17T00:00:00Z","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}`,
	}
	toolInputSeeds = []string{
		"\x00" + `{"command":"ls -la","timeout_ms":5000}`,
		"\x01" + `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`,
		"\x02" + `{"file_path":"/a","view_range":[10,-1]}`,
		"\x03" + `{"file_path":"/a","content":"hi"}`,
		"\x04" + `{"pattern":"**/*.go"}`,
		"\x05" + `{"pattern":"func\\s+main","path":"cmd"}`,
		"\x06" + `{"url":"https://x"}`,
		"\x07" + `{"action":"screenshot"}`,
	}
)

// unknownOf returns the Type and JSON of an Unknown variant.
func unknownOf(v any) (string, json.RawMessage, bool) {
	switch u := v.(type) {
	case UnknownTool:
		return u.Type, u.JSON, true
	case UnknownSkill:
		return u.Type, u.JSON, true
	case UnknownExecutionIdentity:
		return u.Type, u.JSON, true
	case UnknownMultiagent:
		return u.Type, u.JSON, true
	case UnknownRosterEntry:
		return u.Type, u.JSON, true
	case UnknownAdvisor:
		return u.Type, u.JSON, true
	case UnknownDelegation:
		return u.Type, u.JSON, true
	}
	return "", nil, false
}

// roundTrip is the fuzz body of an entry point: the round trip of wiretest,
// and an Unknown variant that holds its type and the object it came from.
func roundTrip[T any](decode func([]byte) (T, error)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		v, ok := wiretest.RoundTrip(t, data, decode, false)
		if !ok {
			return
		}
		if typ, raw, ok := unknownOf(v); ok {
			got, err := wire.TypeOf(raw)
			if err != nil || got != typ {
				t.Fatalf("unknown variant of type %q holds %s (%v)", typ, raw, err)
			}
		}
	}
}

func fuzz[T any](f *testing.F, seeds []string, decode func([]byte) (T, error)) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(roundTrip(decode))
}

// One fuzz target per entry point of the package's JSON: decode → encode →
// decode gives an equal value.
func FuzzAgentRoundTrip(f *testing.F)       { fuzz(f, agentSeeds, unmarshal[Agent]) }
func FuzzModelConfigRoundTrip(f *testing.F) { fuzz(f, modelSeeds, unmarshal[ModelConfig]) }
func FuzzToolRoundTrip(f *testing.F)        { fuzz(f, toolSeeds, decoder[Tool]) }
func FuzzSkillRoundTrip(f *testing.F)       { fuzz(f, skillSeeds, decoder[Skill]) }
func FuzzExecutionIdentityRoundTrip(f *testing.F) {
	fuzz(f, identitySeeds, decoder[ExecutionIdentity])
}
func FuzzMultiagentRoundTrip(f *testing.F)  { fuzz(f, multiagentSeeds, decoder[Multiagent]) }
func FuzzRosterEntryRoundTrip(f *testing.F) { fuzz(f, rosterEntrySeeds, decoder[RosterEntry]) }
func FuzzAdvisorRoundTrip(f *testing.F)     { fuzz(f, advisorSeeds, decoder[Advisor]) }
func FuzzDelegationRoundTrip(f *testing.F)  { fuzz(f, delegationSeeds, decoder[Delegation]) }

// FuzzToolInputRoundTrip: the first byte picks the tool (its index in
// toolNames), the rest is the input.
func FuzzToolInputRoundTrip(f *testing.F) {
	for _, s := range toolInputSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		name := toolNames[int(data[0])%len(toolNames)]
		in, ok := wiretest.RoundTrip(t, data[1:], func(b []byte) (ToolInput, error) { return DecodeToolInput(name, b) }, false)
		if u, isUnknown := in.(UnknownToolInput); ok && isUnknown && string(u.JSON) != string(data[1:]) {
			t.Fatalf("%s input kept as %q, want %q", name, u.JSON, data[1:])
		}
	})
}

// TestSeedsRoundTrip: the seeds round-trip, those in the API's spelling
// exactly, and they hold what no server response does: the Unknown
// variants, the request forms of a roster entry, and the tool inputs.
func TestSeedsRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	exact := func(s string) bool { return !requestSpelling[s] }
	add := func(v any, ok bool, s string) {
		if !ok && s != `{"name":"no type"}` {
			t.Fatalf("seed does not decode: %s", s)
		}
		wiretest.Seen(v, seen)
	}
	for _, s := range agentSeeds {
		v, ok := wiretest.RoundTrip(t, []byte(s), unmarshal[Agent], exact(s))
		add(v, ok, s)
	}
	for _, s := range modelSeeds {
		v, ok := wiretest.RoundTrip(t, []byte(s), unmarshal[ModelConfig], exact(s))
		add(v, ok, s)
	}
	unionSeeds := func(seeds []string, decode func([]byte) (any, error)) {
		for _, s := range seeds {
			v, ok := wiretest.RoundTrip(t, []byte(s), decode, exact(s))
			add(v, ok, s)
		}
	}
	unionSeeds(toolSeeds, anyOf(decoder[Tool]))
	unionSeeds(skillSeeds, anyOf(decoder[Skill]))
	unionSeeds(identitySeeds, anyOf(decoder[ExecutionIdentity]))
	unionSeeds(multiagentSeeds, anyOf(decoder[Multiagent]))
	unionSeeds(rosterEntrySeeds, anyOf(decoder[RosterEntry]))
	unionSeeds(advisorSeeds, anyOf(decoder[Advisor]))
	unionSeeds(delegationSeeds, anyOf(decoder[Delegation]))
	for _, s := range toolInputSeeds {
		name := toolNames[int(s[0])%len(toolNames)]
		v, ok := wiretest.RoundTrip(t, []byte(s[1:]), func(b []byte) (ToolInput, error) { return DecodeToolInput(name, b) }, true)
		add(v, ok, s)
	}
	for _, name := range []string{
		"UnknownTool", "UnknownSkill", "UnknownExecutionIdentity", "UnknownMultiagent", "UnknownRosterEntry",
		"UnknownAdvisor", "UnknownDelegation", "AgentID", "SelfEntry", "RosterAgent",
		"BashInput", "EditInput", "GlobInput", "GrepInput", "ReadInput", "LineRange", "WriteInput", "UnknownToolInput",
	} {
		if !seen[name] {
			t.Errorf("no seed holds a %s", name)
		}
	}
}

// requestSpelling are the seeds in a spelling the API accepts but does not
// send, or with a member left out: they round-trip to the API's spelling.
var requestSpelling = map[string]bool{
	`"vendor-opus-5-5"`:         true,
	`{"id":"m","effort":"low"}`: true,
	`{"name":"no type"}`:        true, // not a tool: does not decode
	`{"type":"agent_toolset_20260401","configs":[{"name":"web_search","enabled":true,"permission_policy":{"type":"auto"},"allowed_domains":["a.com"],"user_location":{"type":"approximate","country":"US","city":"Paris","timezone":"Europe/Paris"}}],"default_config":{"enabled":false}}`: true,
}

func anyOf[T any](decode func([]byte) (T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) { return decode(b) }
}
