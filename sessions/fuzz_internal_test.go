package sessions

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/internal/union/uniontest"
)

// FuzzDecodeEvent checks the hand-written event reader against
// encoding/json: it never panics, it never calls a document that
// encoding/json accepts a syntax error, it accepts nothing json.Valid
// rejects, and the raw JSON it keeps for unknown events is valid.
func FuzzDecodeEvent(f *testing.F) {
	for _, seed := range []string{
		`{"type":"agent.message","id":"sevt_1","processed_at":"2026-11-25T21:56:21.123456Z","content":[{"type":"text","text":"hi \u00e9\n"}]}`,
		`{"type":"session.status_idle","id":"sevt_2","processed_at":null,"stop_reason":{"type":"requires_action","event_ids":["sevt_1"]},"stop_details":null}`,
		`{"type":"agent.tool_use","id":"sevt_3","name":"bash","input":{"command":"ls","n":[1,2.5e3,-0.1,true,null]},"evaluated_permission":"ask","evaluation":{"type":"auto","evaluated_permission":{"type":"ask","reason_code":"indeterminate"}}}`,
		`{"type":"future.event","nested":{"deep":[[[{}]]]},"s":"\ud83d\ude00"}`,
		`{"type":"agent.message","content":"not an array"}`,
		`{"type":"span.model_request_end","model_usage":{"input_tokens":1,"output_tokens":2}}`,
		`{"type":"x",}`,
		`{"type":"x"} trailing`,
		`{"type":"x","a":"\x01"}`,
		"{\"type\":\"x\",\"a\":\"\x01\"}",
		"{\"type\":\"agent.message\",\"content\":[{\"type\":\"text\",\"text\":\"a\\n\x1f\"}]}",
		"{\"type\":\"x\",\"a\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data)
		valid := json.Valid(data)
		syntax := errors.Is(err, errSyntax)
		if valid && syntax {
			t.Fatalf("valid JSON reported as a syntax error: %v\n%s", err, data)
		}
		if !valid && err == nil {
			t.Fatalf("invalid JSON accepted as %T\n%q", ev, data)
		}
		if err == nil && ev == nil {
			t.Fatal("no error and no event")
		}
		if u, ok := ev.(*UnknownEvent); ok && err == nil && valid {
			if !json.Valid(u.JSON) {
				t.Fatalf("unknown event kept invalid raw JSON: %q", u.JSON)
			}
		}
	})
}

// unmarshal decodes a struct that holds unions with its own UnmarshalJSON.
func unmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// sameBudget: a budget's Type "" is sent as "limit" (Budget.MarshalJSON).
var sameBudget = cmp.Comparer(func(a, b Budget) bool {
	for _, x := range []*Budget{&a, &b} {
		if x.Type == "" {
			x.Type = BudgetLimit
		}
	}
	return a == b
})

// unionChecks are the union decoders of the package other than events
// (FuzzDecodeEvent has those), and the structs that hold them, by the kind
// byte of FuzzDecodeUnion.
var unionChecks = []func(*testing.T, []byte){
	uniontest.Decoder[Resource]{Decode: decodeResource}.Check,
	uniontest.Decoder[Checkout]{Decode: DecodeCheckout, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[EventParam]{Decode: DecodeEventParam}.Check,
	uniontest.Decoder[ContentBlockParam]{Decode: decodeContentBlockParam}.Check,
	uniontest.Decoder[RubricParam]{Decode: decodeRubric, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[Multiagent]{Decode: decodeMultiagent, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[RosterMember]{Decode: decodeRosterMember}.Check,
	uniontest.Decoder[Delegation]{Decode: decodeDelegation, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[Agent]{Decode: unmarshal[Agent]}.Check,
	uniontest.Decoder[Session]{Decode: unmarshal[Session], Equal: cmp.Options{sameBudget}}.Check,
}

// FuzzDecodeUnion checks the session resources, checkouts, event
// parameters (and their blocks and rubrics), the session agent's
// multi-agent unions, and the Session that holds them: no panic, no value
// from invalid JSON, unknown types kept byte for byte, and a stable round
// trip through json.Marshal (see uniontest).
func FuzzDecodeUnion(f *testing.F) {
	const (
		resource = iota
		checkout
		eventParam
		blockParam
		rubric
		multiagent
		rosterMember
		delegation
		agent
		session
	)
	const threadAgent = `{"type":"agent","id":"agent_2","version":1,"name":"helper","description":"h","system":null,` +
		`"model":{"id":"m2","effort":{"type":"low"},"inference_geo":"us","speed":"fast"},"tools":[],"mcp_servers":[],` +
		`"skills":[{"type":"vendor","skill_id":"xlsx","version":"latest"}],"execution_identity":{"type":"cloud_role","role_arn":"arn"}}`
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		// Resources, as docs/managed-agents-wire.md shows them.
		{resource, `{"type": "file", "id": "sesrsc_011CZkZBJq5dWxk9fVLNcPht", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w", "mount_path": "/mnt/session/uploads/file_011CNha8iCJcU1wXNR6q4V8w", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"}`},
		{resource, `{"type": "vcs_repository", "id": "sesrsc_011CZkZCKr6eXyl0gWMOdQiu", "url": "https://github.com/example-org/example-repo", "checkout": {"type": "branch", "name": "main"}, "mount_path": "/workspace/example-repo", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"}`},
		{resource, `{"type":"vcs_repository","id":"sesrsc_2","url":"https://x/r","checkout":{"type":"tag","name":"v1"},"mount_path":"/r","created_at":"2026-03-15T10:00:00+01:00","updated_at":"2026-03-15T10:00:00.123456789Z"}`},
		{resource, `{"type": "memory_store", "id": "sesrsc_011CZkZEMt8gZan2iYOQfSkw", "memory_store_id": "memstore_011CZkZHQx2kDer6mcTUjWoA", "access": "read_write", "name": "User Preferences", "description": "Per-user preferences.", "instructions": null, "mount_path": "/mnt/memory/user-preferences", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"}`},
		{resource, `{"type": "bucket", "id": "sesrsc_4", "bucket": "b"}`},
		{resource, `{"id":"sesrsc_5"}`},
		{checkout, `{"type":"commit","sha":"abcdef0"}`},
		{checkout, `null`},
		// Event parameters, as TestRequestEncoding pins them.
		{eventParam, `{"type":"user.message","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","data":"AA=="}}]}`},
		{eventParam, `{"type":"system.message","content":[{"type":"text","text":"s"}]}`},
		{eventParam, `{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"file_1"},"max_iterations":5}`},
		{eventParam, `{"type":"user.define_outcome","description":"d","rubric":{"type":"url","url":"https://r"}}`},
		{eventParam, `{"type":"user.interrupt","session_thread_id":null}`},
		{eventParam, `{"type":"user.tool_confirmation","result":"deny","tool_use_id":"sevt_1","deny_message":"no"}`},
		{eventParam, `{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[{"type":"text","text":"r"}],"is_error":true}`},
		{eventParam, `{"type":"user.tool_result","tool_use_id":"sevt_3","content":null}`},
		{eventParam, `{"type":"user.future","result":"allow","tool_use_id":"sevt_1"}`},
		{blockParam, `{"type":"text","text":"hi"}`},
		{rubric, `{"type":"text","content":"r"}`},
		// The session agent's unions, as TestDecodeSession has them.
		{multiagent, `{"type":"coordinator","agents":[` + threadAgent + `,{"type":"advisor","model":"m3"},{"type":"crowd","size":3}]}`},
		{multiagent, `{"type":"multiagent_20261001","advisor":{"type":"disabled"},"subagents":{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":[` + threadAgent + `]},"workflows":{"type":"budgeted","max":3}}`},
		{multiagent, `{"type":"swarm_20270101","size":9}`},
		{rosterMember, threadAgent},
		{delegation, `{"type":"disabled"}`},
		{agent, `{"type":"agent","id":"agent_1","version":2,"name":"lead","description":null,"system":"s","model":{"id":"m","effort":{"type":"high"},"inference_geo":null,"speed":"standard"},"tools":[{"type":"computer_20270101"}],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"},"multiagent":{"type":"coordinator","agents":[` + threadAgent + `]}}`},
		{agent, `{"type": "agent", "id": "agent_1", "multiagent": null}`},
		{session, `{"type":"session","id":"sesn_1","environment_id":"env_1","status":"hibernating","title":null,"metadata":{},"vault_ids":[],` +
			`"budget":{"type":"limit","max_list_cost":{"amount":"2500","currency":"USD"}},"deployment_id":"depl_1","archived_at":null,` +
			`"created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z","stats":{"active_seconds":1.5,"duration_seconds":3},` +
			`"usage":{"active_seconds":1.5,"cache_creation":{"ephemeral_1h_input_tokens":1,"ephemeral_5m_input_tokens":2},"cache_read_input_tokens":3,` +
			`"input_tokens":4,"output_tokens":5,"list_cost":{"amount":"12","currency":"USD"},"server_tool_use":{"web_fetch_requests":6,"web_search_requests":7}},` +
			`"outcome_evaluations":[{"type":"outcome_evaluation","outcome_id":"outc_1","description":"d","explanation":"e","iteration":2,"result":"partially_satisfied","completed_at":"2026-03-15T10:05:00Z"}],` +
			`"resources":[{"type":"file","id":"sesrsc_1","file_id":"file_1","mount_path":"/f","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"},{"type":"bucket","id":"sesrsc_4"}],` +
			`"agent":{"type":"agent","id":"agent_1","version":2,"name":"lead","tools":[],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"},"multiagent":null}}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		unionChecks[int(kind)%len(unionChecks)](t, data)
	})
}
