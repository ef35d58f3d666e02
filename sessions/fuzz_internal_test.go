package sessions

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
)

// sameValue compares decoded values: exactly, but param.Nullable, whose
// fields are unexported, by its state and value, and raw JSON (tool
// inputs, unknown members) as the JSON value it holds: json.Marshal
// compacts it and escapes <, > and &.
var sameValue = cmp.Options{
	cmp.Comparer(sameJSON),
	cmpopts.EquateComparable(param.Nullable[string]{}),
	cmp.Comparer(func(a, b param.Nullable[Budget]) bool {
		av, aok := a.Get()
		bv, bok := b.Get()
		return a.IsZero() == b.IsZero() && a.IsNull() == b.IsNull() && aok == bok && cmp.Equal(av, bv)
	}),
}

func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&x) == nil && db.Decode(&y) == nil && reflect.DeepEqual(x, y)
}

// roundTrip checks the rule every wire type follows: v, decoded from
// some JSON, marshals, and that decodes back to an equal value, which
// marshals to the same JSON.
func roundTrip[T any](t *testing.T, v T, decode func([]byte) (T, error)) {
	t.Helper()
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded value does not marshal: %v\n%#v", err, v)
	}
	back, err := decode(b1)
	if err != nil {
		t.Fatalf("marshalled value does not decode: %v\n%s", err, b1)
	}
	if diff := cmp.Diff(v, back, sameValue); diff != "" {
		t.Fatalf("round trip through %s changed the value (-decoded +re-decoded):\n%s", b1, diff)
	}
	b2, err := json.Marshal(back)
	if err != nil {
		t.Fatalf("re-decoded value does not marshal: %v", err)
	}
	// The members of an Extra map come in no set order.
	var j1, j2 any
	if json.Unmarshal(b1, &j1) != nil || json.Unmarshal(b2, &j2) != nil || !reflect.DeepEqual(j1, j2) {
		t.Fatalf("encoding is not stable:\n first %s\nsecond %s", b1, b2)
	}
}

// eventSeeds are events of every shape, unknown members included; the
// corpus under testdata/fuzz/FuzzEventRoundTrip adds to them.
var eventSeeds = []string{
	`{"type":"agent.message","id":"sevt_1","processed_at":"2026-11-25T21:56:21.123456Z","content":[{"type":"text","text":"hi \u00e9\n","x":1}],"later":true}`,
	`{"type":"session.status_idle","id":"sevt_2","processed_at":null,"stop_reason":{"type":"requires_action","event_ids":["sevt_1"]},"stop_details":null}`,
	`{"type":"session.status_idle","id":"sevt_2","stop_reason":{"type":"refusal"},"stop_details":{"type":"refusal","category":"cyber","explanation":null}}`,
	`{"type":"agent.tool_use","id":"sevt_3","name":"bash","input":{"command":"ls","n":[1,2.5e3,-0.1,true,null]},"evaluated_permission":"ask","evaluation":{"type":"auto","evaluated_permission":{"type":"ask","reason_code":"indeterminate"}}}`,
	`{"type":"future.event","nested":{"deep":[[[{}]]]},"s":"\ud83d\ude00 <&>"}`,
	`{"type":"agent.message","content":"not an array"}`,
	`{"type":"span.model_request_end","model_usage":{"input_tokens":1,"output_tokens":2}}`,
	`{"type":"session.error","id":"sevt_4","error":{"type":"mcp_connection_failed_error","mcp_server_name":"m","message":"x","retry_status":{"type":"exhausted"},"hint":1}}`,
	`{"type":"session.error","id":"sevt_5","error":{"type":"repository_clone_error","repository_url":null,"message":"x","retry_status":{"type":"retrying"}}}`,
	`{"type":"session.error","id":"sevt_6","error":{"type":"gpu_melted_error","message":"m","retry_status":{"type":"later","in":5},"gpu":7}}`,
	`{"type":"session.updated","id":"sevt_7","budget":null,"title":"T","metadata":{}}`,
	`{"type":"session.usage","id":"sevt_8","usage":{"active_seconds":1,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"cache_read_input_tokens":0,"input_tokens":0,"output_tokens":0,"list_cost":{"amount":"0","currency":"USD"},"server_tool_use":{"web_fetch_requests":0,"web_search_requests":0}},"budget":{"type":"limit","max_list_cost":{"amount":"5","currency":"USD"}}}`,
	`{"type":"user.define_outcome","id":"sevt_9","description":"d","rubric":{"type":"text","content":"r"},"max_iterations":3,"outcome_id":"outc_1"}`,
	`{"type":"user.message","id":"sevt_a","content":[{"type":"image","source":{"type":"url","url":"https://x"}},{"type":"document","source":{"type":"text","media_type":"text/plain","data":"d"},"context":null,"title":"t"},{"type":"search_result","source":"s","title":"t","content":[{"type":"text","text":"x"}],"citations":{"enabled":true}},{"type":"redacted"},{"type":"hologram","f":1}]}`,
	`{"type":"event_delta","event_id":"sevt_1","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"Or"}}}`,
	`{"type":"event_start","event":{"type":"agent.message","id":"sevt_1"}}`,
	`{"type":"x",}`,
	"{\"type\":\"x\",\"a\":\"\xff\"}",
	`{"type":"x","type":"y"}`,
}

// FuzzEventRoundTrip decodes any input as an event: it never panics, and
// whatever decodes round-trips (roundTrip).
func FuzzEventRoundTrip(f *testing.F) {
	for _, s := range eventSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("invalid JSON accepted as %T\n%q", ev, data)
		}
		roundTrip(t, ev, DecodeEvent)
	})
}

// unmarshal decodes with the type's own UnmarshalJSON.
func unmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// resource decodes one resource as Get does.
func resource(data []byte) (Resource, error) {
	var v resourceValue
	err := json.Unmarshal(data, &v)
	return v.r, err
}

// unionChecks are the decoders of the package's other entry points, by
// the kind byte of FuzzUnionRoundTrip.
var unionChecks = []func(*testing.T, []byte){
	roundTrips(resource),
	roundTrips(DecodeCheckout),
	roundTrips(unmarshal[Agent]),
	roundTrips(unmarshal[Session]),
	roundTrips(agentUnion[agents.Multiagent]),
	roundTrips(agentUnion[agents.RosterEntry]),
	roundTrips(DecodeEventParam),
}

// agentUnion decodes one of the agents package's unions as a session's
// agent holds it.
func agentUnion[T any](data []byte) (T, error) {
	var v T
	err := wire.Unmarshal(data, &v, unions)
	return v, err
}

func roundTrips[T any](decode func([]byte) (T, error)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil {
			return
		}
		roundTrip(t, v, decode)
	}
}

// FuzzUnionRoundTrip checks the session resources, checkouts, the session
// agent's multi-agent unions, the Session that holds them and the event
// parameters a deployment echoes: no panic,
// and what decodes round-trips (roundTrip).
func FuzzUnionRoundTrip(f *testing.F) {
	const (
		resourceKind = iota
		checkoutKind
		agentKind
		sessionKind
		multiagentKind
		rosterKind
		eventParamKind
	)
	const threadAgent = `{"type":"agent","id":"agent_2","version":1,"name":"helper","description":"h","system":null,` +
		`"model":{"id":"m2","effort":{"type":"low"},"inference_geo":"us","speed":"fast"},"tools":[],"mcp_servers":[],` +
		`"skills":[{"type":"vendor","skill_id":"xlsx","version":"latest"}],"execution_identity":{"type":"cloud_role","role_arn":"arn"}}`
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		{resourceKind, `{"type": "file", "id": "sesrsc_011CZkZBJq5dWxk9fVLNcPht", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w", "mount_path": "/mnt/session/uploads/file_011CNha8iCJcU1wXNR6q4V8w", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"}`},
		{resourceKind, `{"type": "vcs_repository", "id": "sesrsc_011CZkZCKr6eXyl0gWMOdQiu", "url": "https://github.com/example-org/example-repo", "checkout": {"type": "branch", "name": "main"}, "mount_path": "/workspace/example-repo", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"}`},
		{resourceKind, `{"type":"vcs_repository","id":"sesrsc_2","url":"https://x/r","checkout":{"type":"tag","name":"v1"},"mount_path":"/r","created_at":"2026-03-15T10:00:00+01:00","updated_at":"2026-03-15T10:00:00.123456789Z"}`},
		{resourceKind, `{"type": "memory_store", "id": "sesrsc_011CZkZEMt8gZan2iYOQfSkw", "memory_store_id": "memstore_011CZkZHQx2kDer6mcTUjWoA", "access": "read_write", "name": "User Preferences", "description": "Per-user preferences.", "instructions": null, "mount_path": "/mnt/memory/user-preferences", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z", "later": [1]}`},
		{resourceKind, `{"type": "bucket", "id": "sesrsc_4", "bucket": "b"}`},
		{resourceKind, `{"id":"sesrsc_5"}`},
		{checkoutKind, `{"type":"commit","sha":"abcdef0"}`},
		{checkoutKind, `null`},
		{multiagentKind, `{"type":"coordinator","agents":[` + threadAgent + `,{"type":"advisor","model":"m3"},{"type":"crowd","size":3}]}`},
		{multiagentKind, `{"type":"multiagent_20261001","advisor":{"type":"disabled"},"subagents":{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":[` + threadAgent + `]},"workflows":{"type":"budgeted","max":3}}`},
		{multiagentKind, `{"type":"swarm_20270101","size":9}`},
		{rosterKind, threadAgent},
		{eventParamKind, `{"type":"user.message","content":[{"type":"text","text":"a","cache":1},{"type":"image","source":{"type":"base64","data":"AA=="}}]}`},
		{eventParamKind, `{"type":"system.message","content":[{"type":"text","text":"s"}]}`},
		{eventParamKind, `{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"file_1"},"max_iterations":5}`},
		{eventParamKind, `{"type":"user.define_outcome","description":"d","rubric":{"type":"url","url":"https://r"}}`},
		{eventParamKind, `{"type":"user.interrupt","session_thread_id":null}`},
		{eventParamKind, `{"type":"user.tool_confirmation","result":"deny","tool_use_id":"sevt_1","deny_message":"no"}`},
		{eventParamKind, `{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[{"type":"text","text":"r"}],"is_error":true}`},
		{eventParamKind, `{"type":"user.tool_result","tool_use_id":"sevt_3","content":null}`},
		{eventParamKind, `{"type":"user.future","result":"allow","tool_use_id":"sevt_1"}`},
		{agentKind, `{"type":"agent","id":"agent_1","version":2,"name":"lead","description":null,"system":"s","model":{"id":"m","effort":{"type":"high"},"inference_geo":null,"speed":"standard"},"tools":[{"type":"computer_20270101"}],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"},"multiagent":{"type":"coordinator","agents":[` + threadAgent + `]}}`},
		{agentKind, `{"type": "agent", "id": "agent_1", "multiagent": null, "color": "red"}`},
		{sessionKind, `{"type":"session","id":"sesn_1","environment_id":"env_1","status":"hibernating","title":null,"metadata":{},"vault_ids":[],` +
			`"budget":{"type":"limit","max_list_cost":{"amount":"2500","currency":"USD"}},"deployment_id":"depl_1","archived_at":null,` +
			`"created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z","stats":{"active_seconds":1.5,"duration_seconds":3},` +
			`"usage":{"active_seconds":1.5,"cache_creation":{"ephemeral_1h_input_tokens":1,"ephemeral_5m_input_tokens":2},"cache_read_input_tokens":3,` +
			`"input_tokens":4,"output_tokens":5,"list_cost":{"amount":"12","currency":"USD"},"server_tool_use":{"web_fetch_requests":6,"web_search_requests":7}},` +
			`"outcome_evaluations":[{"type":"outcome_evaluation","outcome_id":"outc_1","description":"d","explanation":"e","iteration":2,"result":"partially_satisfied","completed_at":"2026-03-15T10:05:00Z"}],` +
			`"resources":[{"type":"file","id":"sesrsc_1","file_id":"file_1","mount_path":"/f","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"},{"type":"bucket","id":"sesrsc_4"}],` +
			`"agent":{"type":"agent","id":"agent_1","version":2,"name":"lead","tools":[],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"},"multiagent":null},"hibernation":{"at":null}}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		unionChecks[int(kind)%len(unionChecks)](t, data)
	})
}

// TestEventCorpusRoundTrips runs the event round trip over the seeds and
// the corpus files without fuzzing, naming each input.
func TestEventCorpusRoundTrips(t *testing.T) {
	inputs := append([]string(nil), eventSeeds...)
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzEventRoundTrip", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// "go test fuzz v1" files hold one []byte("…") line per argument.
		for _, line := range strings.Split(string(b), "\n") {
			if lit, ok := strings.CutPrefix(line, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				inputs = append(inputs, s)
			}
		}
	}
	decoded := 0
	for _, in := range inputs {
		ev, err := DecodeEvent([]byte(in))
		if err != nil {
			continue
		}
		decoded++
		roundTrip(t, ev, DecodeEvent)
	}
	if decoded < len(eventSeeds)/2 {
		t.Fatalf("only %d of %d inputs decoded", decoded, len(inputs))
	}
}

// TestWireTypesHaveJSONMethods: every exported struct type with an Extra
// field marshals and unmarshals itself; encoding/json would otherwise
// write Extra as a member.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	marshaler := reflect.TypeFor[json.Marshaler]()
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	count := 0
	for _, v := range wireTypes {
		typ := reflect.TypeOf(v)
		if _, ok := typ.FieldByName("Extra"); !ok {
			t.Errorf("%s has no Extra field", typ)
			continue
		}
		count++
		if !typ.Implements(marshaler) {
			t.Errorf("%s does not implement json.Marshaler", typ)
		}
		if !reflect.PointerTo(typ).Implements(unmarshaler) {
			t.Errorf("*%s does not implement json.Unmarshaler", typ)
		}
	}
	if count == 0 {
		t.Fatal("no wire types")
	}
}

// FuzzFastPaths checks the shortcuts of the stream decoder against the
// general decoding: whatever a shortcut accepts, the general path decodes
// to the same value.
func FuzzFastPaths(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","text":"plain"}`,
		`{"type":"text","text":"esc \" \\ \n \u00e9 \ud83d\ude00"}`,
		`{"type":"text","text":"a","x":"b"}`,
		`{"type":"text","text":""}`,
		`{"type":"text","text":"\ud83d"}`,
		"{\"type\":\"text\",\"text\":\"\xff\"}",
		`{"type":"event_delta","event_id":"sevt_1","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"Or"}}}`,
		`{"type":"event_delta","event_id":"sevt_1","delta":{"type":"content_delta","index":12,"content":{"type":"text","text":"\"q\"\n"}}}`,
		`{"type":"event_delta","event_id":"","delta":{"type":"content_delta","index":01,"content":{"type":"text","text":""}}}`,
		`{"type":"event_delta","event_id":"a\"b","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"x"}}}`,
	} {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"id":"sevt_1","processed_at":"2026-03-15T10:00:00.001370Z","type":"session.status_running"}`,
		`{"id":"sevt_1","processed_at":"2026-03-15T10:00:00Z","type":"span.model_request_start"}`,
		`{"id":"sevt_1","processed_at":"2026-02-30T25:00:00Z","type":"agent.thinking"}`,
		`{"id":"sevt_1","processed_at":"2026-03-15T10:00:00.Z","type":"session.deleted"}`,
		`{"type":"event_start","event":{"type":"agent.message","id":"sevt_2"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		typ, err := wire.TypeOf(data)
		if err != nil {
			typ = string(EventPreviewDelta)
		}
		if ev, ok := shortcut(EventType(typ), data); ok {
			want, err := decodeEventAs(EventType(typ), data)
			if err != nil {
				t.Fatalf("shortcut accepted the event %q, the decoder refuses it: %v", data, err)
			}
			if diff := cmp.Diff(want, Event(ev), sameValue); diff != "" {
				t.Fatalf("shortcut differs for %q:\n%s", data, diff)
			}
		}
		if !isObject(data) {
			return // plainText is only given objects the decoder has read
		}
		text, ok := plainText(data)
		if !ok {
			return
		}
		p, err := newVariant[plainTextBlock](data)
		if err != nil {
			t.Fatalf("shortcut accepted %q (%q), the decoder refuses it: %v", data, text, err)
		}
		if diff := cmp.Diff(TextBlock(*p), TextBlock{Text: text}); diff != "" {
			t.Fatalf("shortcut differs for %q:\n%s", data, diff)
		}
	})
}
