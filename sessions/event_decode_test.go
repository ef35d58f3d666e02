package sessions_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func meta(id, at string) sessions.EventMeta {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		panic(err)
	}
	return sessions.EventMeta{ID: id, ProcessedAt: t}
}

func threadMeta(id, at, thread string) sessions.EventMeta {
	m := meta(id, at)
	m.ThreadID = thread
	return m
}

func text(s string) []sessions.ContentBlock {
	return []sessions.ContentBlock{sessions.TextBlock{Text: s}}
}

const at = "2026-03-15T10:00:04.120000Z"

// nullables compares the tri-state fields of session.updated.
var nullables = cmp.Options{
	cmpopts.EquateComparable(param.Nullable[string]{}),
	cmp.Comparer(func(a, b param.Nullable[sessions.Budget]) bool {
		av, aok := a.Get()
		bv, bok := b.Get()
		return a.IsZero() == b.IsZero() && a.IsNull() == b.IsNull() && aok == bok && cmp.Equal(av, bv)
	}),
}

// TestDecodeCatalogue decodes one example of every event type of
// docs/session-events-wire.md 4 and 5 (most taken from it) into its type,
// every key included.
func TestDecodeCatalogue(t *testing.T) {
	usage := sessions.ModelUsage{InputTokens: 3571, OutputTokens: 727, CacheReadInputTokens: 6656, Speed: "standard"}
	cases := []struct {
		json string
		want sessions.Event
	}{
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.message","content":[{"type":"text","text":"Where is my order #1234?"}]}`,
			&sessions.UserMessageEvent{EventMeta: meta("sevt_1", at), Content: text("Where is my order #1234?")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.interrupt","session_thread_id":"sthr_1"}`,
			&sessions.InterruptEvent{EventMeta: threadMeta("sevt_1", at, "sthr_1")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.tool_confirmation","result":"deny","tool_use_id":"sevt_0","deny_message":"Only src/orders.","session_thread_id":null}`,
			&sessions.ToolConfirmationEvent{EventMeta: meta("sevt_1", at), Result: sessions.ConfirmationDeny, ToolUseID: "sevt_0", DenyMessage: "Only src/orders."}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.custom_tool_result","custom_tool_use_id":"sevt_0","content":[],"is_error":true,"session_thread_id":"sthr_2"}`,
			&sessions.CustomToolResultEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), CustomToolUseID: "sevt_0", Content: []sessions.ContentBlock{}, IsError: true}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.tool_result","tool_use_id":"sevt_0","content":[{"type":"text","text":"total 8"}],"is_error":false,"session_thread_id":null}`,
			&sessions.ToolResultEvent{EventMeta: meta("sevt_1", at), ToolUseID: "sevt_0", Content: text("total 8")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"user.define_outcome","description":"A DCF model.","rubric":{"type":"file","file_id":"file_1"},"max_iterations":3,"outcome_id":"outc_1"}`,
			&sessions.DefineOutcomeEvent{EventMeta: meta("sevt_1", at), Description: "A DCF model.", Rubric: sessions.FileRubric("file_1"), MaxIterations: 3, OutcomeID: "outc_1"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"system.message","content":[{"type":"text","text":"Be brief."}]}`,
			&sessions.SystemMessageEvent{EventMeta: meta("sevt_1", at), Content: text("Be brief.")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.message","content":[{"type":"text","text":"Shipped."},{"type":"redacted"}]}`,
			&sessions.AgentMessageEvent{EventMeta: meta("sevt_1", at), Content: []sessions.ContentBlock{sessions.TextBlock{Text: "Shipped."}, sessions.RedactedBlock{}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.thinking"}`,
			&sessions.AgentThinkingEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.tool_use","name":"bash","input":{"command":"grep -rn TODO src/"},"evaluated_permission":"ask","evaluation":{"type":"always_ask"},"session_thread_id":null}`,
			&sessions.AgentToolUseEvent{EventMeta: meta("sevt_1", at), Name: agents.ToolBash, Input: json.RawMessage(`{"command":"grep -rn TODO src/"}`),
				EvaluatedPermission: sessions.PermissionAsk, Evaluation: sessions.AlwaysAskEvaluation{}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.tool_use","name":"write","input":{"file_path":"/w/n.md","content":"draft"},"evaluated_permission":"deny","evaluation":{"type":"auto","evaluated_permission":{"type":"deny","reason_code":"high_risk"}},"session_thread_id":"sthr_2"}`,
			&sessions.AgentToolUseEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), Name: agents.ToolWrite, Input: json.RawMessage(`{"file_path":"/w/n.md","content":"draft"}`),
				EvaluatedPermission: sessions.PermissionDeny, Evaluation: sessions.AutoEvaluation{EvaluatedPermission: sessions.AutoPermission{Type: sessions.PermissionDeny, ReasonCode: "high_risk"}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.tool_use","name":"teleport","input":{},"evaluated_permission":"deny","evaluation":null,"session_thread_id":null}`,
			&sessions.AgentToolUseEvent{EventMeta: meta("sevt_1", at), Name: "teleport", Input: json.RawMessage(`{}`), EvaluatedPermission: sessions.PermissionDeny}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.tool_use","name":"web_fetch","input":{"url":"https://x"},"evaluated_permission":"allow","evaluation":{"type":"always_allow"},"session_thread_id":null}`,
			&sessions.AgentToolUseEvent{EventMeta: meta("sevt_1", at), Name: agents.ToolWebFetch, Input: json.RawMessage(`{"url":"https://x"}`),
				EvaluatedPermission: sessions.PermissionAllow, Evaluation: sessions.AlwaysAllowEvaluation{}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.custom_tool_use","name":"lookup_order","input":{"order_id":"1234"},"session_thread_id":null}`,
			&sessions.AgentCustomToolUseEvent{EventMeta: meta("sevt_1", at), Name: "lookup_order", Input: json.RawMessage(`{"order_id":"1234"}`)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.mcp_tool_use","name":"create_issue","mcp_server_name":"example-mcp","input":{"title":"Flaky"},"evaluated_permission":"ask","evaluation":{"type":"policy_2027"},"session_thread_id":null}`,
			&sessions.AgentMCPToolUseEvent{EventMeta: meta("sevt_1", at), Name: "create_issue", MCPServerName: "example-mcp", Input: json.RawMessage(`{"title":"Flaky"}`),
				EvaluatedPermission: sessions.PermissionAsk, Evaluation: sessions.UnknownEvaluation{Type: "policy_2027", JSON: json.RawMessage(`{"type":"policy_2027"}`)}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.tool_result","tool_use_id":"sevt_0","content":[{"type":"text","text":"src/main.go:12"}],"is_error":false}`,
			&sessions.AgentToolResultEvent{EventMeta: meta("sevt_1", at), ToolUseID: "sevt_0", Content: text("src/main.go:12")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.mcp_tool_result","mcp_tool_use_id":"sevt_0","content":[{"type":"text","text":"Created issue #88"}],"is_error":true}`,
			&sessions.AgentMCPToolResultEvent{EventMeta: meta("sevt_1", at), MCPToolUseID: "sevt_0", Content: text("Created issue #88"), IsError: true}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.thread_message_sent","to_session_thread_id":"sthr_2","to_agent_name":null,"content":[{"type":"text","text":"Review."}]}`,
			&sessions.AgentThreadMessageSentEvent{EventMeta: meta("sevt_1", at), ToSessionThreadID: "sthr_2", Content: text("Review.")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.thread_message_received","from_session_thread_id":"sthr_2","from_agent_name":"vendor.advisor","content":[{"type":"text","text":"Two issues."}]}`,
			&sessions.AgentThreadMessageReceivedEvent{EventMeta: meta("sevt_1", at), FromSessionThreadID: "sthr_2", FromAgentName: "vendor.advisor", Content: text("Two issues.")}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"agent.thread_context_compacted"}`,
			&sessions.AgentThreadContextCompactedEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_running"}`,
			&sessions.SessionStatusRunningEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_idle","stop_reason":{"type":"requires_action","event_ids":["sevt_a","sevt_b"]},"stop_details":null}`,
			&sessions.SessionStatusIdleEvent{EventMeta: meta("sevt_1", at), StopReason: sessions.StopRequiresAction{EventIDs: []string{"sevt_a", "sevt_b"}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_idle","stop_reason":{"type":"refusal"},"stop_details":{"type":"refusal","category":"cyber","explanation":null}}`,
			&sessions.SessionStatusIdleEvent{EventMeta: meta("sevt_1", at), StopReason: sessions.StopRefusal{}, StopDetails: sessions.RefusalDetails{Category: "cyber"}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_idle","stop_reason":{"type":"max_turns","turns":9},"stop_details":{"type":"quota","n":1}}`,
			&sessions.SessionStatusIdleEvent{EventMeta: meta("sevt_1", at),
				StopReason:  sessions.UnknownStopReason{Type: "max_turns", JSON: json.RawMessage(`{"type":"max_turns","turns":9}`)},
				StopDetails: sessions.UnknownStopDetails{Type: "quota", JSON: json.RawMessage(`{"type":"quota","n":1}`)}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_rescheduled"}`,
			&sessions.SessionStatusRescheduledEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.status_terminated"}`,
			&sessions.SessionStatusTerminatedEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_created","session_thread_id":"sthr_2","agent_name":"code-reviewer","workflow_run_id":null}`,
			&sessions.SessionThreadCreatedEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "code-reviewer"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_status_running","session_thread_id":"sthr_2","agent_name":"code-reviewer"}`,
			&sessions.SessionThreadStatusRunningEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "code-reviewer"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_status_idle","session_thread_id":"sthr_2","agent_name":"code-reviewer","stop_reason":{"type":"budget_reached"},"stop_details":null}`,
			&sessions.SessionThreadStatusIdleEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "code-reviewer", StopReason: sessions.StopBudgetReached{}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_status_idle","session_thread_id":"sthr_2","agent_name":"a","stop_reason":{"type":"retries_exhausted"},"stop_details":null}`,
			&sessions.SessionThreadStatusIdleEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "a", StopReason: sessions.StopRetriesExhausted{}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_status_rescheduled","session_thread_id":"sthr_2","agent_name":"a"}`,
			&sessions.SessionThreadStatusRescheduledEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "a"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.thread_status_terminated","session_thread_id":"sthr_2","agent_name":"vendor.advisor"}`,
			&sessions.SessionThreadStatusTerminatedEvent{EventMeta: threadMeta("sevt_1", at, "sthr_2"), AgentName: "vendor.advisor"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.error","error":{"type":"model_overloaded_error","message":"The model is overloaded.","retry_status":{"type":"retrying"}}}`,
			&sessions.SessionErrorEvent{EventMeta: meta("sevt_1", at), Error: sessions.SessionError{Type: "model_overloaded_error", Message: "The model is overloaded.", RetryStatus: sessions.RetryRetrying{}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.error","error":{"type":"mcp_connection_failed_error","mcp_server_name":"example-mcp","message":"m","retry_status":{"type":"exhausted"}}}`,
			&sessions.SessionErrorEvent{EventMeta: meta("sevt_1", at), Error: sessions.SessionError{Type: "mcp_connection_failed_error", Message: "m",
				RetryStatus: sessions.RetryExhausted{}, Details: sessions.MCPErrorDetails{MCPServerName: "example-mcp"}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.error","error":{"type":"credential_host_unreachable_error","credential_id":"cred_1","vault_id":"vlt_1","message":"m","retry_status":{"type":"terminal"}}}`,
			&sessions.SessionErrorEvent{EventMeta: meta("sevt_1", at), Error: sessions.SessionError{Type: "credential_host_unreachable_error", Message: "m",
				RetryStatus: sessions.RetryTerminal{}, Details: sessions.CredentialErrorDetails{CredentialID: "cred_1", VaultID: "vlt_1"}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.error","error":{"type":"repository_clone_error","repository_url":null,"message":"m","retry_status":{"type":"retrying"}}}`,
			&sessions.SessionErrorEvent{EventMeta: meta("sevt_1", at), Error: sessions.SessionError{Type: "repository_clone_error", Message: "m",
				RetryStatus: sessions.RetryRetrying{}, Details: sessions.RepositoryErrorDetails{}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.error","error":{"type":"gpu_melted_error","message":"m","retry_status":{"type":"later","in":5},"gpu":7}}`,
			&sessions.SessionErrorEvent{EventMeta: meta("sevt_1", at), Error: sessions.SessionError{Type: "gpu_melted_error", Message: "m",
				RetryStatus: sessions.UnknownRetryStatus{Type: "later", JSON: json.RawMessage(`{"type":"later","in":5}`)},
				Details: sessions.UnknownErrorDetails{Type: "gpu_melted_error",
					JSON: json.RawMessage(`{"type":"gpu_melted_error","message":"m","retry_status":{"type":"later","in":5},"gpu":7}`)},
				Extra: map[string]json.RawMessage{"gpu": json.RawMessage("7")}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.updated","budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}}`,
			&sessions.SessionUpdatedEvent{EventMeta: meta("sevt_1", at), Budget: param.Value(sessions.Limit(money.USD(500)))}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.updated","budget":null,"title":null,"metadata":{}}`,
			&sessions.SessionUpdatedEvent{EventMeta: meta("sevt_1", at), Budget: param.Null[sessions.Budget](), Title: param.Null[string](), Metadata: map[string]string{}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.updated","title":"T","metadata":{"k":"v"},"agent":{"type":"agent","id":"agent_1","version":1,"name":"n","description":null,"system":null,"model":{"id":"vendor-haiku-5-5","effort":null,"inference_geo":null,"speed":"standard"},"tools":[],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"},"multiagent":null}}`,
			&sessions.SessionUpdatedEvent{EventMeta: meta("sevt_1", at), Title: param.Value("T"), Metadata: map[string]string{"k": "v"},
				Agent: &sessions.Agent{RosterAgent: agents.RosterAgent{ID: "agent_1", Version: 1, Name: "n",
					Model: agents.ModelConfig{ID: models.VendorHaiku55, Speed: agents.SpeedStandard}, Tools: []agents.Tool{}, MCPServers: []agents.MCPServer{},
					Skills: []agents.Skill{}, ExecutionIdentity: agents.ServiceAccount{}}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.usage","usage":{"active_seconds":3.1,"cache_creation":{"ephemeral_1h_input_tokens":1,"ephemeral_5m_input_tokens":2},"cache_read_input_tokens":6656,"input_tokens":3571,"output_tokens":727,"list_cost":{"amount":"3","currency":"USD"},"server_tool_use":{"web_fetch_requests":4,"web_search_requests":5}},"budget":null}`,
			&sessions.SessionUsageEvent{EventMeta: meta("sevt_1", at), Usage: sessions.Usage{ActiveSeconds: 3.1,
				CacheCreation:        sessions.CacheCreation{Ephemeral1hInputTokens: 1, Ephemeral5mInputTokens: 2},
				CacheReadInputTokens: 6656, InputTokens: 3571, OutputTokens: 727, ListCost: money.USD(3),
				ServerToolUse: sessions.ServerToolUse{WebFetchRequests: 4, WebSearchRequests: 5}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"session.deleted"}`,
			&sessions.SessionDeletedEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"span.model_request_start"}`,
			&sessions.SpanModelRequestStartEvent{EventMeta: meta("sevt_1", at)}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"span.model_request_end","model_request_start_id":"sevt_0","is_error":false,"model_usage":{"input_tokens":3571,"output_tokens":727,"cache_creation_input_tokens":0,"cache_read_input_tokens":6656,"speed":"standard"}}`,
			&sessions.SpanModelRequestEndEvent{EventMeta: meta("sevt_1", at), ModelRequestStartID: "sevt_0", ModelUsage: usage}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"span.outcome_evaluation_start","outcome_id":"outc_1","iteration":0}`,
			&sessions.SpanOutcomeEvaluationStartEvent{EventMeta: meta("sevt_1", at), OutcomeID: "outc_1"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"span.outcome_evaluation_ongoing","outcome_id":"outc_1","iteration":1}`,
			&sessions.SpanOutcomeEvaluationOngoingEvent{EventMeta: meta("sevt_1", at), OutcomeID: "outc_1", Iteration: 1}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"span.outcome_evaluation_end","outcome_id":"outc_1","outcome_evaluation_start_id":"sevt_0","iteration":0,"result":"satisfied","explanation":"All 12 criteria met.","usage":{"input_tokens":3571,"output_tokens":727,"cache_creation_input_tokens":0,"cache_read_input_tokens":6656,"speed":"standard"}}`,
			&sessions.SpanOutcomeEvaluationEndEvent{EventMeta: meta("sevt_1", at), OutcomeID: "outc_1", OutcomeEvaluationStartID: "sevt_0",
				Result: sessions.OutcomeSatisfied, Explanation: "All 12 criteria met.", Usage: usage}},
		{`{"type":"event_start","event":{"type":"agent.thinking","id":"sevt_1"}}`,
			&sessions.EventStart{Event: sessions.PreviewedEvent{Type: sessions.EventAgentThinking, ID: "sevt_1"}}},
		{`{"type":"event_delta","event_id":"sevt_1","delta":{"type":"content_delta","index":2,"content":{"type":"text","text":"Order #1234 shipped"}}}`,
			&sessions.EventDelta{EventID: "sevt_1", Delta: sessions.ContentDelta{Type: "content_delta", Index: 2, Content: sessions.TextBlock{Text: "Order #1234 shipped"}}}},
		// The workflow_run.* family, as the platform sends it (the
		// reference server has no workflow engine).
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.created","workflow_run_id":"wfr_1","name":"triage","description":null,"phases":[{"id":"wfp_1","name":"collect","description":"Gather the logs."},{"id":"wfp_2","name":"sort","description":null}]}`,
			&sessions.WorkflowRunCreatedEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1", Name: "triage",
				Phases: []sessions.WorkflowRunPhase{{ID: "wfp_1", Name: "collect", Description: "Gather the logs."}, {ID: "wfp_2", Name: "sort"}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.status_running","workflow_run_id":"wfr_1"}`,
			&sessions.WorkflowRunStatusRunningEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.status_idle","workflow_run_id":"wfr_1"}`,
			&sessions.WorkflowRunStatusIdleEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.phase_started","workflow_run_id":"wfr_1","workflow_run_phase_id":"wfp_1"}`,
			&sessions.WorkflowRunPhaseStartedEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1", WorkflowRunPhaseID: "wfp_1"}},
		{`{"id":"sevt_2","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.phase_ended","workflow_run_id":"wfr_1","workflow_run_phase_id":"wfp_1","phase_started_id":"sevt_1"}`,
			&sessions.WorkflowRunPhaseEndedEvent{EventMeta: meta("sevt_2", at), WorkflowRunID: "wfr_1", WorkflowRunPhaseID: "wfp_1", PhaseStartedID: "sevt_1"}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.error","workflow_run_id":null,"error":{"type":"max_workflow_runs_error","message":"Too many runs."}}`,
			&sessions.WorkflowRunErrorEvent{EventMeta: meta("sevt_1", at),
				Error: sessions.WorkflowRunError{Type: sessions.WorkflowRunMaxWorkflowRunsError, Message: "Too many runs."}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.status_ended","workflow_run_id":"wfr_1","result":{"type":"error","error":{"type":"timeout_error","message":"The run hit its time limit."}}}`,
			&sessions.WorkflowRunStatusEndedEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1", Result: sessions.WorkflowRunResult{
				Type: sessions.WorkflowRunResultError, Error: &sessions.WorkflowRunError{Type: sessions.WorkflowRunTimeoutError, Message: "The run hit its time limit."}}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.status_ended","workflow_run_id":"wfr_1","result":{"type":"completed"}}`,
			&sessions.WorkflowRunStatusEndedEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1", Result: sessions.WorkflowRunResult{Type: sessions.WorkflowRunResultCompleted}}},
		{`{"id":"sevt_1","processed_at":"2026-03-15T10:00:04.120000Z","type":"workflow_run.status_ended","workflow_run_id":"wfr_1","result":{"type":"rewound","by":"agent"}}`,
			&sessions.WorkflowRunStatusEndedEvent{EventMeta: meta("sevt_1", at), WorkflowRunID: "wfr_1", Result: sessions.WorkflowRunResult{Type: "rewound",
				Extra: map[string]json.RawMessage{"by": json.RawMessage(`"agent"`)}}}},
		{`{"id":"sevt_1","processed_at":null,"type":"plan.revised","plan_id":"plan_1","session_thread_id":"sthr_9"}`,
			&sessions.UnknownEvent{EventMeta: sessions.EventMeta{ID: "sevt_1", ThreadID: "sthr_9"}, EventType: "plan.revised",
				JSON: json.RawMessage(`{"id":"sevt_1","processed_at":null,"type":"plan.revised","plan_id":"plan_1","session_thread_id":"sthr_9"}`)}},
	}
	seen := map[sessions.EventType]bool{}
	for _, tc := range cases {
		got, err := sessions.DecodeEvent([]byte(tc.json))
		require.NoError(t, err, tc.json)
		require.Empty(t, cmp.Diff(tc.want, got, nullables), tc.json)
		require.Equal(t, tc.want.Type(), got.Type())
		seen[got.Type()] = true

		// Key order and white space do not matter.
		var generic map[string]any
		require.NoError(t, json.Unmarshal([]byte(tc.json), &generic))
		pretty, err := json.MarshalIndent(generic, " ", "\t")
		require.NoError(t, err)
		again, err := sessions.DecodeEvent(pretty)
		require.NoError(t, err)
		if u, ok := again.(*sessions.UnknownEvent); ok {
			require.JSONEq(t, tc.json, string(u.JSON))
			u.JSON = tc.want.(*sessions.UnknownEvent).JSON
		}
		require.Empty(t, cmp.Diff(tc.want, again, nullables, cmp.Transformer("json", func(m json.RawMessage) any {
			var v any
			_ = json.Unmarshal(m, &v)
			return v
		})), string(pretty))
	}
	require.Len(t, seen, 45, "every type of the catalogue, both previews and an unknown type")
}

// TestDecodeContentBlocks covers every block kind and source.
func TestDecodeContentBlocks(t *testing.T) {
	content := `[
	  {"type":"text","text":"a"},
	  {"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},
	  {"type":"image","source":{"type":"url","url":"https://x/i.png"}},
	  {"type":"image","source":{"type":"file","file_id":"file_1"}},
	  {"type":"document","source":{"type":"text","media_type":"text/plain","data":"doc"},"context":null,"title":"T"},
	  {"type":"document","source":{"type":"s3","bucket":"b"},"context":"c","title":null},
	  {"type":"search_result","source":"https://x","title":"X","content":[{"type":"text","text":"hit"}],"citations":{"enabled":true}},
	  {"type":"redacted"},
	  {"type":"hologram","frames":3}
	]`
	ev, err := sessions.DecodeEvent([]byte(`{"id":"sevt_1","processed_at":"2026-03-15T10:00:00Z","type":"agent.tool_result","tool_use_id":"sevt_0","is_error":false,"content":` + content + `}`))
	require.NoError(t, err)
	require.Empty(t, cmp.Diff([]sessions.ContentBlock{
		sessions.TextBlock{Text: "a"},
		sessions.ImageBlock{Source: sessions.Base64Source{MediaType: "image/png", Data: "AA=="}},
		sessions.ImageBlock{Source: sessions.URLSource{URL: "https://x/i.png"}},
		sessions.ImageBlock{Source: sessions.FileSource{FileID: "file_1"}},
		sessions.DocumentBlock{Source: sessions.PlainTextSource{MediaType: "text/plain", Data: "doc"}, Title: "T"},
		sessions.DocumentBlock{Source: sessions.UnknownSource{Type: "s3", JSON: json.RawMessage(`{"type":"s3","bucket":"b"}`)}, Context: "c"},
		sessions.SearchResultBlock{Source: "https://x", Title: "X", Content: []sessions.TextBlock{{Text: "hit"}}, Citations: &sessions.Citations{Enabled: true}},
		sessions.RedactedBlock{},
		sessions.UnknownContentBlock{Type: "hologram", JSON: json.RawMessage(`{"type":"hologram","frames":3}`)},
	}, ev.(*sessions.AgentToolResultEvent).Content))
	require.Equal(t, "a", sessions.Text(ev.(*sessions.AgentToolResultEvent).Content))
}

// TestDecodeStrings checks string and timestamp decoding against
// encoding/json and time.Parse.
func TestDecodeStrings(t *testing.T) {
	for _, s := range []string{
		"", "plain", "quote \" backslash \\ slash / \b\f\n\r\t", "\u00e9t\u00e9 \u2028 \U0001F600 ",
		strings.Repeat("long text with \"quotes\" ", 500), "<html>&amp;</html>", "\x01\x1f",
	} {
		lit, err := json.Marshal(s)
		require.NoError(t, err)
		ev, err := sessions.DecodeEvent([]byte(`{"type":"agent.message","id":"sevt_1","processed_at":null,"content":[{"type":"text","text":` + string(lit) + `}]}`))
		require.NoError(t, err)
		require.Equal(t, s, sessions.Text(ev.(*sessions.AgentMessageEvent).Content))
	}
	for lit, want := range map[string]string{`"\u00e9\uD83D\uDE00"`: "é😀", `"\/"`: "/"} {
		ev, err := sessions.DecodeEvent([]byte(`{"type":"agent.message","content":[{"type":"text","text":` + lit + `}]}`))
		require.NoError(t, err)
		require.Equal(t, want, sessions.Text(ev.(*sessions.AgentMessageEvent).Content), lit)
	}
	// A lone surrogate is not text: such an event is refused rather than
	// repaired, so that what decodes always encodes back to the same JSON.
	for _, lit := range []string{`"\uD83D"`, `"\uDE00x"`, `"\uD83Dabc"`} {
		_, err := sessions.DecodeEvent([]byte(`{"type":"agent.message","content":[{"type":"text","text":` + lit + `}]}`))
		require.Error(t, err, lit)
	}
	for _, ts := range []string{
		"2026-03-15T10:00:00Z", "2026-03-15T10:00:00.1Z", "2026-03-15T10:00:00.123456789Z", "2024-02-29T23:59:59.999999Z",
		"2026-03-15T10:00:00+02:00", "2026-03-15T10:00:00.5-07:30",
	} {
		want, err := time.Parse(time.RFC3339Nano, ts)
		require.NoError(t, err)
		ev, err := sessions.DecodeEvent([]byte(`{"type":"agent.thinking","id":"sevt_1","processed_at":"` + ts + `"}`))
		require.NoError(t, err, ts)
		require.True(t, want.Equal(ev.(sessions.PersistedEvent).Meta().ProcessedAt), ts)
	}
}

// TestDecodeRejectsMalformed: bad input is an error, never a panic.
func TestDecodeRejectsMalformed(t *testing.T) {
	for _, bad := range []string{
		``, `null`, `[]`, `{}`, `{"type":1}`, `{"id":"sevt_1"}`, `{"type":null}`,
		`{"type":"agent.message"`, `{"type":"agent.message",}`, `{"type":"agent.message"} x`,
		`{"type":"agent.message","content":[{"type":"text","text":"a"]}`,
		`{"type":"agent.message","content":{"type":"text"}}`,
		`{"type":"agent.message","content":[{"type":"text","text":"\x"}]}`,
		`{"type":"agent.message","content":[{"type":"text","text":"\u12"}]}`,
		`{"type":"agent.message","content":[{"type":"text","text":"open`,
		`{"type":"agent.thinking","processed_at":"yesterday"}`,
		`{"type":"agent.thinking","processed_at":"2026-02-30T10:00:00Z"}`,
		`{"type":"span.model_request_end","is_error":"no"}`,
		`{"type":"span.model_request_end","model_usage":{"input_tokens":1.5}}`,
		`{"type":"session.usage","usage":{"input_tokens":tru}}`,
		`{"type":"workflow_run.x","a":[1,2}`,
		`{"type":"agent.message","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
	} {
		_, err := sessions.DecodeEvent([]byte(bad))
		require.Error(t, err, bad)
	}
}

// sameJSON compares raw JSON (tool inputs, unknown members) as the JSON
// value it holds: json.Marshal compacts it and escapes <, > and &.
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
