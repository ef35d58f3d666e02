package sessions_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// catalogue is every event type the SDK knows: docs/session-events-wire.md
// section 4.1 and the previews of section 5.
var catalogue = []sessions.EventType{
	sessions.EventUserMessage, sessions.EventInterrupt, sessions.EventToolConfirmation, sessions.EventCustomToolResult,
	sessions.EventToolResult, sessions.EventDefineOutcome, sessions.EventSystemMessage,
	sessions.EventAgentMessage, sessions.EventAgentThinking, sessions.EventAgentToolUse, sessions.EventAgentCustomToolUse,
	sessions.EventAgentMCPToolUse, sessions.EventAgentToolResult, sessions.EventAgentMCPToolResult,
	sessions.EventAgentThreadMessageSent, sessions.EventAgentThreadMessageReceived, sessions.EventAgentThreadContextCompacted,
	sessions.EventSessionStatusRunning, sessions.EventSessionStatusIdle, sessions.EventSessionStatusRescheduled,
	sessions.EventSessionStatusTerminated, sessions.EventSessionThreadCreated, sessions.EventSessionThreadStatusRunning,
	sessions.EventSessionThreadStatusIdle, sessions.EventSessionThreadStatusRescheduled, sessions.EventSessionThreadStatusTerminated,
	sessions.EventSessionError, sessions.EventSessionUpdated, sessions.EventSessionUsage, sessions.EventSessionDeleted,
	sessions.EventSpanModelRequestStart, sessions.EventSpanModelRequestEnd, sessions.EventSpanOutcomeEvaluationStart,
	sessions.EventSpanOutcomeEvaluationOngoing, sessions.EventSpanOutcomeEvaluationEnd,
	sessions.EventPreviewStart, sessions.EventPreviewDelta,
	sessions.EventWorkflowRunCreated, sessions.EventWorkflowRunStatusRunning, sessions.EventWorkflowRunStatusIdle,
	sessions.EventWorkflowRunStatusEnded, sessions.EventWorkflowRunPhaseStarted, sessions.EventWorkflowRunPhaseEnded,
	sessions.EventWorkflowRunError,
}

// wireRecorder keeps the body of every successful response the client
// gets, as it came off the wire.
type wireRecorder struct {
	mu     sync.Mutex
	bodies []*recordedBody
}

type recordedBody struct {
	method, path string
	mu           sync.Mutex
	buf          bytes.Buffer
}

func (b *recordedBody) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *recordedBody) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func (r *wireRecorder) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp.StatusCode >= 300 {
		return resp, err
	}
	rb := &recordedBody{method: req.Method, path: req.URL.Path}
	r.mu.Lock()
	r.bodies = append(r.bodies, rb)
	r.mu.Unlock()
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, rb), resp.Body}
	return resp, nil
}

// wire sorts what was recorded: the event objects (streamed, listed and
// sent back), and the sessions' and resources' objects.
func (r *wireRecorder) wire(t *testing.T) (events, sessionObjs, resourceObjs []json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.bodies {
		body := b.bytes()
		parts := strings.Split(strings.TrimPrefix(b.path, "/v1/"), "/")
		switch {
		case strings.HasSuffix(b.path, "/events/stream"):
			events = append(events, sseData(body)...)
		case len(parts) == 3 && parts[0] == "sessions" && parts[2] == "events":
			events = append(events, listData(t, body)...)
		case len(parts) >= 3 && parts[0] == "sessions" && parts[2] == "resources":
			if len(parts) == 3 && b.method == http.MethodGet {
				resourceObjs = append(resourceObjs, listData(t, body)...)
			} else if b.method != http.MethodDelete {
				resourceObjs = append(resourceObjs, body)
			}
		case parts[0] == "sessions" && b.method != http.MethodDelete:
			if len(parts) == 1 && b.method == http.MethodGet {
				sessionObjs = append(sessionObjs, listData(t, body)...)
			} else {
				sessionObjs = append(sessionObjs, body)
			}
		}
	}
	return events, sessionObjs, resourceObjs
}

// sseData returns the data of a stream's events, pings and error events
// left out.
func sseData(body []byte) []json.RawMessage {
	var out []json.RawMessage
	var name string
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == "":
			if len(data) > 0 && name != "ping" && name != "error" {
				out = append(out, json.RawMessage(strings.Join(data, "\n")))
			}
			name, data = "", nil
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	return out
}

func listData(t *testing.T, body []byte) []json.RawMessage {
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &page), "%s", body)
	return page.Data
}

// requireWireRoundTrip checks the rule of every wire type on raw, an
// object as the server sent it: it decodes; it marshals back to JSON equal
// to raw, except that a member that was null may be absent and that a
// timestamp may be written with another number of fractional digits (the
// same instant: time.Time keeps no layout); and that JSON decodes to an
// equal value.
func requireWireRoundTrip[T any](t *testing.T, raw []byte, decode func([]byte) (T, error)) T {
	t.Helper()
	v, err := decode(raw)
	require.NoError(t, err, "%s", raw)
	out, err := json.Marshal(v)
	require.NoError(t, err, "%s", raw)
	require.Equal(t, withoutNulls(t, raw), withoutNulls(t, out), "marshal(decode(wire)) is the wire\n wire %s\n  out %s", raw, out)
	back, err := decode(out)
	require.NoError(t, err, "%s", out)
	require.Empty(t, cmp.Diff(v, back, nullables, cmp.Comparer(sameJSON)), "decode(marshal(v)) is v, through %s", out)
	return v
}

// withoutNulls decodes a JSON value, less the object members whose value
// is null, with its timestamps as instants.
func withoutNulls(t *testing.T, raw []byte) any {
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	var drop func(any) any
	drop = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if x == nil {
					delete(v, k)
				} else {
					v[k] = drop(x)
				}
			}
		case []any:
			for i := range v {
				v[i] = drop(v[i])
			}
		case string:
			if ts, err := time.Parse(time.RFC3339Nano, v); err == nil {
				return ts.UTC()
			}
		}
		return v
	}
	return drop(v)
}

func unmarshalAs[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// decodeResource decodes a resource object into its variant by its type.
func decodeResource(data []byte) (sessions.Resource, error) {
	var probe struct {
		Type sessions.ResourceType `json:"type"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	switch probe.Type {
	case sessions.ResourceTypeFile:
		return unmarshalAs[sessions.FileResource](data)
	case sessions.ResourceTypeRepository:
		return unmarshalAs[sessions.RepositoryResource](data)
	case sessions.ResourceTypeMemoryStore:
		return unmarshalAs[sessions.MemoryStoreResource](data)
	}
	return nil, nil
}

// TestWireRoundTrip drives sessions through every part of the event
// catalogue (tools, confirmations, custom and client-run tools, MCP,
// interrupts, outcomes, errors, retries, refusals, threads, budgets,
// updates, termination, deletion) and checks every event, session and
// resource the reference server sent against the round-trip rule, and that
// every event type of the catalogue was seen.
func TestWireRoundTrip(t *testing.T) {
	f := newFixture(t)
	rec := &wireRecorder{}
	f.client = f.env.Client(t, option.WithMiddleware(rec.middleware))
	newSession := func(p agents.CreateParams, mutate ...func(*sessions.CreateParams)) *sessions.Session {
		if p.Model == nil {
			p.Model = f.agent.Model
		}
		for _, tool := range p.Tools {
			if ts, ok := tool.(agents.MCPToolset); ok {
				p.MCPServers = append(p.MCPServers, agents.MCPServer{Name: ts.MCPServerName, URL: "https://mcp.example.com/sse"})
			}
		}
		a := f.newAgent(t, p)
		cp := sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: f.envID}
		for _, m := range mutate {
			m(&cp)
		}
		return f.newSession(t, cp)
	}

	// A turn with thinking, a message in chunks, a tool run by the server,
	// and previews of both; a system message.
	s := newSession(agents.CreateParams{Name: "Worker", Tools: []agents.Tool{allowedTools}}, func(p *sessions.CreateParams) {
		p.Resources = []sessions.ResourceParam{
			sessions.FileResourceParam{FileID: fileID},
			sessions.RepositoryResourceParam{URL: repoURL, Checkout: sessions.BranchCheckout{Name: "main"}},
		}
		p.Metadata = map[string]string{"k": "v"}
		p.Budget = &sessions.Budget{MaxListCost: money.USD(2500)}
	})
	tl := f.previews(t, s.ID)
	f.script(t, s.ID, []refserver.Step{
		refserver.Think("Hmm."),
		refserver.SayChunks("Looking ", "now."),
		refserver.UseTool("bash", map[string]any{"command": "ls"}, refserver.ToolOutput("README.md", false)),
		refserver.Say("One file."),
	})
	f.send(t, s.ID, sessions.UserMessage("What is there?"), sessions.SystemMessage("Be brief."))
	tl.untilIdle()
	_, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("Files"), Metadata: map[string]*string{"k": nil}})
	require.NoError(t, err)
	tl.until(isType(sessions.EventSessionUpdated))
	_, err = f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{})
	require.NoError(t, err)

	// Confirmations, allowed and denied.
	s = newSession(agents.CreateParams{Name: "Careful", Tools: []agents.Tool{askingToolset}})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID,
		[]refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"})},
		[]refserver.Step{refserver.UseTool("bash", map[string]any{"command": "rm -rf /"}), refserver.Say("Understood.")})
	f.send(t, s.ID, sessions.UserMessage("Look."))
	use := only[*sessions.AgentToolUseEvent](t, tl.untilIdle())
	f.send(t, s.ID, sessions.Allow(use.ID))
	tl.untilIdle()
	f.send(t, s.ID, sessions.UserMessage("Clean up."))
	use = only[*sessions.AgentToolUseEvent](t, tl.untilIdle())
	f.send(t, s.ID, sessions.Deny(use.ID, "No."))
	tl.untilIdle()

	// A custom tool, an MCP tool.
	s = newSession(agents.CreateParams{Name: "Support", Tools: []agents.Tool{lookupOrder, mcpTools}})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID,
		[]refserver.Step{refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1"}), refserver.Say("Friday.")},
		[]refserver.Step{refserver.UseMCPTool("example-mcp", "create_issue", map[string]any{"title": "t"}, refserver.ToolOutput("Created #88", false))})
	f.send(t, s.ID, sessions.UserMessage("Where?"))
	custom := only[*sessions.AgentCustomToolUseEvent](t, tl.untilIdle())
	f.send(t, s.ID, sessions.CustomToolResult(custom.ID, `{"eta":"Friday"}`))
	tl.untilIdle()
	f.send(t, s.ID, sessions.UserMessage("File it."))
	mcp := only[*sessions.AgentMCPToolUseEvent](t, tl.untilIdle())
	f.send(t, s.ID, sessions.Allow(mcp.ID))
	tl.untilIdle()

	// A tool the client runs (self-hosted environment).
	worker, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "worker", Config: environments.SelfHostedConfig{}})
	require.NoError(t, err)
	s = newSession(agents.CreateParams{Name: "Ops", Tools: []agents.Tool{allowedTools}}, func(p *sessions.CreateParams) { p.EnvironmentID = worker.ID })
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	f.send(t, s.ID, sessions.UserMessage("List."))
	use = only[*sessions.AgentToolUseEvent](t, tl.untilIdle())
	f.send(t, s.ID, sessions.ToolResult(use.ID, "README.md"))
	tl.untilIdle()

	// An interrupt; an outcome evaluated twice.
	s = newSession(agents.CreateParams{Name: "Analyst", Tools: []agents.Tool{allowedTools}})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID,
		[]refserver.Step{refserver.Hold()},
		[]refserver.Step{
			refserver.Say("Draft.", refserver.Outcome("needs_revision", "Totals missing.")),
			refserver.UseTool("bash", map[string]any{"command": "ls"}),
			refserver.Say("Final.", refserver.Outcome("satisfied", "All met.")),
		})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	tl.until(isType(sessions.EventSessionStatusRunning))
	f.send(t, s.ID, sessions.Interrupt())
	tl.untilIdle()
	f.send(t, s.ID, sessions.DefineOutcome("A report.", sessions.TextRubric("has totals")))
	tl.until(func(ev sessions.Event) bool {
		end, ok := ev.(*sessions.SpanOutcomeEvaluationEndEvent)
		return ok && end.Result == sessions.OutcomeSatisfied
	})
	_, err = f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)

	// A failed request, a refusal, a retried one.
	s = newSession(agents.CreateParams{Name: "Fragile"})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID,
		[]refserver.Step{refserver.Fail("mcp_connection_failed_error", "Could not connect.")},
		[]refserver.Step{refserver.Refuse("No.")},
		[]refserver.Step{refserver.Reschedule("model_overloaded_error", "Overloaded."), refserver.Say("Retried.")})
	for range 3 {
		f.send(t, s.ID, sessions.UserMessage("Go."))
		tl.untilIdle()
	}

	// Threads of a coordinator; a budget removed.
	reviewer := f.newAgent(t, agents.CreateParams{Name: "code-reviewer", Model: f.agent.Model})
	s = newSession(agents.CreateParams{Name: "lead", Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID)}}},
		func(p *sessions.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.USD(100)} })
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Spawn("code-reviewer", refserver.Say("Two issues.")),
		refserver.Say("Reviewed."),
	})
	f.send(t, s.ID, sessions.UserMessage("Review."))
	tl.untilIdle()
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Budget: param.Null[sessions.Budget]()})
	require.NoError(t, err)
	tl.until(isType(sessions.EventSessionUpdated))

	// Types the reference server never produces by itself, recorded as
	// the platform sends them (docs/session-events-wire.md 4.8, 4.10,
	// 4.14); then termination, and a deleted session's last event.
	s = newSession(agents.CreateParams{Name: "Misc"})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Emit("agent.thread_context_compacted", nil),
		refserver.Emit("session.thread_status_rescheduled", map[string]any{"session_thread_id": "sthr_01oRsz3E1EyHfvg0tP4LXwVy", "agent_name": "code-reviewer"}),
		refserver.Emit("session.thread_status_terminated", map[string]any{"session_thread_id": "sthr_01oRsz3E1EyHfvg0tP4LXwVy", "agent_name": "code-reviewer"}),
		refserver.Emit("span.outcome_evaluation_ongoing", map[string]any{"outcome_id": "outc_01A80u3vhH6IdHviJxitttN7", "iteration": 0}),
		refserver.Emit("workflow_run.created", map[string]any{"workflow_run_id": "wfr_1", "name": "triage", "description": nil,
			"phases": []any{map[string]any{"id": "wfp_1", "name": "collect", "description": nil}}}),
		refserver.Emit("workflow_run.status_running", map[string]any{"workflow_run_id": "wfr_1"}),
		refserver.Emit("workflow_run.phase_started", map[string]any{"workflow_run_id": "wfr_1", "workflow_run_phase_id": "wfp_1"}),
		refserver.Emit("workflow_run.status_idle", map[string]any{"workflow_run_id": "wfr_1"}),
		refserver.Emit("workflow_run.error", map[string]any{"workflow_run_id": "wfr_1", "error": map[string]any{"type": "program_error", "message": "The plan threw."}}),
		refserver.Emit("workflow_run.phase_ended", map[string]any{"workflow_run_id": "wfr_1", "workflow_run_phase_id": "wfp_1", "phase_started_id": "sevt_1"}),
		refserver.Emit("workflow_run.status_ended", map[string]any{"workflow_run_id": "wfr_1",
			"result": map[string]any{"type": "error", "error": map[string]any{"type": "program_error", "message": "The plan threw."}}}),
		refserver.Terminate("billing_error", "Out of credit."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	tl.until(isType(sessions.EventSessionStatusTerminated))
	s = newSession(agents.CreateParams{Name: "Doomed"})
	tl = f.tail(t, s.ID, sessions.StreamParams{})
	require.NoError(t, f.client.Sessions.Delete(ctx, s.ID))
	tl.until(isType(sessions.EventSessionDeleted))
	_, err = f.client.Sessions.List(ctx, sessions.ListParams{IncludeArchived: true})
	require.NoError(t, err)

	events, sessionObjs, resourceObjs := rec.wire(t)
	seen := map[sessions.EventType]int{}
	for _, raw := range events {
		ev := requireWireRoundTrip(t, raw, sessions.DecodeEvent)
		_, unknown := ev.(*sessions.UnknownEvent)
		require.False(t, unknown, "%s", raw)
		seen[ev.Type()]++
	}
	for _, typ := range catalogue {
		require.NotZero(t, seen[typ], "no %s event was seen", typ)
	}
	require.Len(t, seen, len(catalogue))

	require.NotEmpty(t, sessionObjs)
	for _, raw := range sessionObjs {
		requireWireRoundTrip(t, raw, unmarshalAs[sessions.Session])
	}
	kinds := map[string]bool{}
	for _, raw := range resourceObjs {
		r := requireWireRoundTrip(t, raw, decodeResource)
		kinds[fmt.Sprintf("%T", r)] = true
	}
	require.Equal(t, []string{"sessions.FileResource", "sessions.RepositoryResource"}, slices.Sorted(maps.Keys(kinds)))
}
