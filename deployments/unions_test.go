package deployments_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestRequestEncoding pins the wire form of the request bodies.
func TestRequestEncoding(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"minimal create", deployments.CreateParams{Name: "n", Agent: agents.AgentID("agent_1"), EnvironmentID: "env_1",
			InitialEvents: []sessions.EventParam{sessions.UserMessage("go")}},
			`{"agent":"agent_1","environment_id":"env_1","name":"n","initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}]}`},
		{"full create", deployments.CreateParams{Name: "n", Agent: agents.AgentReference{ID: "agent_1", Version: 2}, EnvironmentID: "env_1",
			InitialEvents: []sessions.EventParam{sessions.UserMessage("go")}, Description: "d", Metadata: map[string]string{"k": "v"},
			Budget:    &sessions.Budget{MaxListCost: money.USD(5)},
			Resources: []sessions.ResourceParam{sessions.FileResourceParam{FileID: "file_1"}},
			Schedule:  &deployments.ScheduleParam{Expression: "0 9 * * *", Timezone: "UTC"}, VaultIDs: []string{"vlt_1"}},
			`{"agent":{"type":"agent","id":"agent_1","version":2},"environment_id":"env_1","name":"n",
			  "initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}],
			  "budget":{"type":"limit","max_list_cost":{"amount":"5","currency":"USD"}},"description":"d","metadata":{"k":"v"},
			  "resources":[{"type":"file","file_id":"file_1"}],"schedule":{"type":"cron","expression":"0 9 * * *","timezone":"UTC"},
			  "vault_ids":["vlt_1"]}`},
		{"update nulls", deployments.UpdateParams{Description: param.Null[string](), Budget: param.Null[sessions.Budget](),
			Resources: param.Null[[]sessions.ResourceParam](), Schedule: param.Null[deployments.ScheduleParam](), VaultIDs: param.Null[[]string](),
			Metadata: map[string]*string{"gone": nil}},
			`{"description":null,"budget":null,"metadata":{"gone":null},"resources":null,"schedule":null,"vault_ids":null}`},
		{"update values", deployments.UpdateParams{Agent: agents.AgentID("agent_1"), EnvironmentID: "env_2", Name: "m",
			InitialEvents: []sessions.EventParam{sessions.UserMessage("x")},
			Resources:     param.Value([]sessions.ResourceParam{}), VaultIDs: param.Value([]string{}),
			Schedule: param.Value(deployments.ScheduleParam{Expression: "* * * * *", Timezone: "UTC"})},
			`{"agent":"agent_1","environment_id":"env_2","initial_events":[{"type":"user.message","content":[{"type":"text","text":"x"}]}],
			  "name":"m","resources":[],"schedule":{"type":"cron","expression":"* * * * *","timezone":"UTC"},"vault_ids":[]}`},
		{"empty update", deployments.UpdateParams{}, `{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
		})
	}
}

const deploymentJSON = `{
  "type": "deployment", "id": "depl_1", "name": "n", "description": null,
  "agent": {"type": "agent", "id": "agent_1", "version": 2}, "environment_id": "env_1",
  "initial_events": [
    {"type": "user.message", "content": [{"type": "text", "text": "go"}, {"type": "document", "file_id": "file_9"}]},
    {"type": "user.define_outcome", "description": "d", "rubric": {"type": "file", "file_id": "file_1"}, "max_iterations": 3},
    {"type": "user.future_event", "payload": {"x": 1}}
  ],
  "resources": [
    {"type": "file", "file_id": "file_1", "mount_path": null},
    {"type": "vcs_repository", "url": "https://x/r", "checkout": {"type": "commit", "sha": "abcdef0"}, "mount_path": "/r"},
    {"type": "memory_store", "memory_store_id": "memstore_1", "access": null, "instructions": null},
    {"type": "bucket", "name": "b"}
  ],
  "vault_ids": [], "budget": null,
  "schedule": {"type": "cron", "expression": "0 9 * * *", "timezone": "UTC", "last_run_at": "2026-03-15T09:00:00.000000Z",
               "upcoming_runs_at": ["2026-03-16T09:00:00.000000Z"]},
  "status": "paused", "paused_reason": {"type": "error", "error": {"type": "memory_store_archived_error"}},
  "metadata": {}, "archived_at": null, "created_at": "2026-03-15T08:00:00Z", "updated_at": "2026-03-15T08:00:00Z"
}`

func TestDecodeDeployment(t *testing.T) {
	var d deployments.Deployment
	require.NoError(t, json.Unmarshal([]byte(deploymentJSON), &d))
	at := time.Date(2026, time.March, 15, 8, 0, 0, 0, time.UTC)
	want := deployments.Deployment{
		Type: "deployment", ID: "depl_1", Name: "n",
		Agent: agents.AgentReference{ID: "agent_1", Version: 2}, EnvironmentID: "env_1",
		InitialEvents: []sessions.EventParam{
			sessions.UserMessageParam{Content: []sessions.ContentBlockParam{
				sessions.TextBlockParam{Text: "go"},
				sessions.UnknownContentBlockParam{Type: "document", JSON: json.RawMessage(`{"type": "document", "file_id": "file_9"}`)},
			}},
			sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.FileRubric("file_1"), MaxIterations: 3},
			sessions.UnknownEventParam{Type: "user.future_event", JSON: json.RawMessage(`{"type": "user.future_event", "payload": {"x": 1}}`)},
		},
		Resources: []deployments.ResourceConfig{
			deployments.FileResourceConfig{FileID: "file_1"},
			deployments.RepositoryResourceConfig{URL: "https://x/r", Checkout: sessions.CommitCheckout{SHA: "abcdef0"}, MountPath: "/r"},
			deployments.MemoryStoreResourceConfig{MemoryStoreID: "memstore_1"},
			deployments.UnknownResourceConfig{Type: "bucket", JSON: json.RawMessage(`{"type": "bucket", "name": "b"}`)},
		},
		VaultIDs: []string{},
		Schedule: &deployments.Schedule{Type: "cron", Expression: "0 9 * * *", Timezone: "UTC",
			LastRunAt: at.Add(time.Hour), UpcomingRunsAt: []time.Time{at.Add(25 * time.Hour)}},
		Status:       deployments.StatusPaused,
		PausedReason: deployments.ErrorPause{Error: deployments.RunError{Type: deployments.RunErrorMemoryStoreArchived}},
		Metadata:     map[string]string{},
		CreatedAt:    at, UpdatedAt: at,
	}
	require.Empty(t, cmp.Diff(want, d, rawEqual))

	b, err := json.Marshal(d)
	require.NoError(t, err)
	var again deployments.Deployment
	require.NoError(t, json.Unmarshal(b, &again))
	require.Empty(t, cmp.Diff(d, again, rawEqual))

	// Stored events of unknown types are sent back unchanged on update.
	body, err := json.Marshal(deployments.UpdateParams{InitialEvents: d.InitialEvents})
	require.NoError(t, err)
	require.Contains(t, string(body), `{"type":"user.future_event","payload":{"x":1}}`)
}

func TestPausedReasons(t *testing.T) {
	cases := []struct {
		json string
		want deployments.PausedReason
	}{
		{`{"type":"manual"}`, deployments.ManualPause{}},
		{`{"type":"error","error":{"type":"environment_archived_error"}}`, deployments.ErrorPause{Error: deployments.RunError{Type: deployments.RunErrorEnvironmentArchived}}},
		{`{"type":"maintenance","until":"2026-04-01T00:00:00Z"}`, deployments.UnknownPausedReason{Type: "maintenance", JSON: json.RawMessage(`{"type":"maintenance","until":"2026-04-01T00:00:00Z"}`)}},
	}
	for _, tc := range cases {
		var d deployments.Deployment
		require.NoError(t, json.Unmarshal([]byte(`{"paused_reason":`+tc.json+`}`), &d))
		require.Equal(t, tc.want, d.PausedReason)
		b, err := json.Marshal(d.PausedReason)
		require.NoError(t, err)
		require.JSONEq(t, tc.json, string(b))
	}
	var d deployments.Deployment
	require.NoError(t, json.Unmarshal([]byte(`{"paused_reason":null,"schedule":null}`), &d))
	require.Nil(t, d.PausedReason)
	require.Nil(t, d.Schedule)
}

func TestDecodeRuns(t *testing.T) {
	cases := []struct {
		json string
		want deployments.Run
	}{
		{`{"type":"deployment_run","id":"drun_1","deployment_id":"depl_1","agent":{"type":"agent","id":"agent_1","version":2},
		   "trigger_context":{"type":"schedule","scheduled_at":"2026-03-16T16:00:00Z"},"session_id":null,
		   "error":{"type":"environment_archived_error","message":"environment ` + "`env_1`" + ` is archived"},"created_at":"2026-03-16T16:00:00Z"}`,
			deployments.Run{Type: "deployment_run", ID: "drun_1", DeploymentID: "depl_1", Agent: agents.AgentReference{ID: "agent_1", Version: 2},
				TriggerContext: deployments.ScheduleTrigger{ScheduledAt: time.Date(2026, 3, 16, 16, 0, 0, 0, time.UTC)},
				Error:          &deployments.RunError{Type: deployments.RunErrorEnvironmentArchived, Message: "environment `env_1` is archived"},
				CreatedAt:      time.Date(2026, 3, 16, 16, 0, 0, 0, time.UTC)}},
		{`{"type":"deployment_run","id":"drun_2","deployment_id":"depl_1","agent":{"type":"agent","id":"agent_1","version":2},
		   "trigger_context":{"type":"manual"},"session_id":"sesn_1","error":null,"created_at":"2026-03-15T11:00:00Z"}`,
			deployments.Run{Type: "deployment_run", ID: "drun_2", DeploymentID: "depl_1", Agent: agents.AgentReference{ID: "agent_1", Version: 2},
				TriggerContext: deployments.ManualTrigger{}, SessionID: "sesn_1", CreatedAt: time.Date(2026, 3, 15, 11, 0, 0, 0, time.UTC)}},
		{`{"type":"deployment_run","id":"drun_3","deployment_id":"depl_1","agent":{"type":"agent","id":"agent_1","version":2},
		   "trigger_context":{"type":"webhook","source":"github"},"session_id":null,
		   "error":{"type":"quota_exceeded_error","message":"m"},"created_at":"2026-03-15T11:00:00Z"}`,
			deployments.Run{Type: "deployment_run", ID: "drun_3", DeploymentID: "depl_1", Agent: agents.AgentReference{ID: "agent_1", Version: 2},
				TriggerContext: deployments.UnknownTrigger{Type: "webhook", JSON: json.RawMessage(`{"type":"webhook","source":"github"}`)},
				Error:          &deployments.RunError{Type: "quota_exceeded_error", Message: "m"},
				CreatedAt:      time.Date(2026, 3, 15, 11, 0, 0, 0, time.UTC)}},
	}
	for _, tc := range cases {
		var r deployments.Run
		require.NoError(t, json.Unmarshal([]byte(tc.json), &r))
		require.Empty(t, cmp.Diff(tc.want, r, rawEqual))
		b, err := json.Marshal(r.TriggerContext)
		require.NoError(t, err)
		var trig struct {
			TriggerContext json.RawMessage `json:"trigger_context"`
		}
		require.NoError(t, json.Unmarshal([]byte(tc.json), &trig))
		require.JSONEq(t, string(trig.TriggerContext), string(b), "the trigger marshals back as received")
	}
}

// TestDecodeErrorsNameThePath: a malformed variant fails the decode with
// where it is, its type, and what in it is wrong.
func TestDecodeErrorsNameThePath(t *testing.T) {
	var d deployments.Deployment
	err := json.Unmarshal([]byte(`{"resources":[{"type":"file","file_id":1}]}`), &d)
	require.ErrorContains(t, err, `"/resources/0": file:`)
	require.ErrorContains(t, err, `"/file_id"`)
	require.ErrorContains(t, json.Unmarshal([]byte(`{"paused_reason":{"x":1}}`), &d), `"/paused_reason": object has no "type"`)
	var r deployments.Run
	err = json.Unmarshal([]byte(`{"trigger_context":{"type":"schedule","scheduled_at":"x"}}`), &r)
	require.ErrorContains(t, err, `"/trigger_context": schedule:`)
	require.ErrorContains(t, err, `"/scheduled_at"`)
}
