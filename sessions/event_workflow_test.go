package sessions_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestWorkflowRunEvents: workflow_run.* events, recorded as the platform
// sends them (the reference server has no workflow engine and emits them
// only when scripted to), reach the caller typed on the stream, and their
// EventType constants select them in a history filter.
func TestWorkflowRunEvents(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Emit("workflow_run.created", map[string]any{"workflow_run_id": "wfr_1", "name": "triage", "description": "Sort the logs.",
			"phases": []any{map[string]any{"id": "wfp_1", "name": "collect", "description": nil}}}),
		refserver.Emit("workflow_run.status_running", map[string]any{"workflow_run_id": "wfr_1"}),
		refserver.Emit("workflow_run.error", map[string]any{"workflow_run_id": "wfr_1",
			"error": map[string]any{"type": "thread_limit_error", "message": "Too many threads."}}),
		refserver.Emit("workflow_run.status_ended", map[string]any{"workflow_run_id": "wfr_1",
			"result": map[string]any{"type": "error", "error": map[string]any{"type": "thread_limit_error", "message": "Too many threads."}}}),
		refserver.Say("Done."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	got := tl.untilIdle()

	created := only[*sessions.WorkflowRunCreatedEvent](t, got)
	require.Equal(t, "triage", created.Name)
	require.Equal(t, "Sort the logs.", created.Description)
	require.Equal(t, []sessions.WorkflowRunPhase{{ID: "wfp_1", Name: "collect"}}, created.Phases)
	require.Equal(t, "wfr_1", only[*sessions.WorkflowRunStatusRunningEvent](t, got).WorkflowRunID)
	runErr := sessions.WorkflowRunError{Type: sessions.WorkflowRunThreadLimitError, Message: "Too many threads."}
	require.Equal(t, runErr, only[*sessions.WorkflowRunErrorEvent](t, got).Error)
	ended := only[*sessions.WorkflowRunStatusEndedEvent](t, got)
	require.Equal(t, sessions.WorkflowRunResult{Type: sessions.WorkflowRunResultError, Error: &runErr}, ended.Result)

	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{
		Types: []sessions.EventType{sessions.EventWorkflowRunCreated, sessions.EventWorkflowRunStatusEnded}})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.Equal(t, created, page.Data[0])
	require.Equal(t, ended, page.Data[1])
}
