package sessions_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestEventParamsBothWays pins the wire form of every event parameter and
// decodes it back to the same value.
func TestEventParamsBothWays(t *testing.T) {
	cases := []struct {
		name string
		p    sessions.EventParam
		want string
	}{
		{"user.message", sessions.UserMessage("Where is order #1234?"),
			`{"type":"user.message","content":[{"type":"text","text":"Where is order #1234?"}]}`},
		{"interrupt every thread", sessions.Interrupt(), `{"type":"user.interrupt"}`},
		{"interrupt one thread", sessions.InterruptThread("sthr_1"), `{"type":"user.interrupt","session_thread_id":"sthr_1"}`},
		{"allow", sessions.Allow("sevt_1"), `{"type":"user.tool_confirmation","result":"allow","tool_use_id":"sevt_1"}`},
		{"deny", sessions.Deny("sevt_1", "Look only in src/orders."),
			`{"type":"user.tool_confirmation","result":"deny","tool_use_id":"sevt_1","deny_message":"Look only in src/orders."}`},
		{"deny without a message", sessions.Deny("sevt_1", ""), `{"type":"user.tool_confirmation","result":"deny","tool_use_id":"sevt_1"}`},
		{"custom tool result", sessions.CustomToolResult("sevt_2", `{"status":"shipped"}`),
			`{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[{"type":"text","text":"{\"status\":\"shipped\"}"}]}`},
		{"custom tool error", sessions.CustomToolError("sevt_2", "no such order"),
			`{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[{"type":"text","text":"no such order"}],"is_error":true}`},
		{"custom tool result, empty", sessions.CustomToolResult("sevt_2"), `{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2"}`},
		{"custom tool result, blocks", sessions.CustomToolResultParam{CustomToolUseID: "sevt_2", Content: []sessions.ContentBlockParam{
			sessions.TextBlockParam{Text: "a"},
			sessions.UnknownContentBlockParam{Type: "image", JSON: json.RawMessage(`{"type":"image","source":{"type":"url","url":"https://x/i.png"}}`)},
		}}, `{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","url":"https://x/i.png"}}]}`},
		{"tool result", sessions.ToolResult("sevt_3", "total 8"),
			`{"type":"user.tool_result","tool_use_id":"sevt_3","content":[{"type":"text","text":"total 8"}]}`},
		{"tool error", sessions.ToolError("sevt_3", "permission denied"),
			`{"type":"user.tool_result","tool_use_id":"sevt_3","content":[{"type":"text","text":"permission denied"}],"is_error":true}`},
		{"define outcome", sessions.DefineOutcomeParam{Description: "A report.", Rubric: sessions.TextRubric("report.md exists"), MaxIterations: 2},
			`{"type":"user.define_outcome","description":"A report.","rubric":{"type":"text","content":"report.md exists"},"max_iterations":2}`},
		{"system message", sessions.SystemMessage("Answer briefly."),
			`{"type":"system.message","content":[{"type":"text","text":"Answer briefly."}]}`},
		{"unknown", sessions.UnknownEventParam{Type: "user.future", JSON: json.RawMessage(`{"type":"user.future","x":1}`)}, `{"type":"user.future","x":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.p)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
			back, err := sessions.DecodeEventParam(b)
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(tc.p, back))
		})
	}

	// null and absent optional keys decode to the zero value.
	p, err := sessions.DecodeEventParam([]byte(`{"type":"user.interrupt","session_thread_id":null}`))
	require.NoError(t, err)
	require.Equal(t, sessions.Interrupt(), p)
	p, err = sessions.DecodeEventParam([]byte(`{"type":"user.tool_confirmation","result":"allow","tool_use_id":"sevt_1","deny_message":null}`))
	require.NoError(t, err)
	require.Equal(t, sessions.Allow("sevt_1"), p)
	p, err = sessions.DecodeEventParam([]byte(`{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_2","content":[],"is_error":null}`))
	require.NoError(t, err)
	require.Equal(t, sessions.CustomToolResultParam{CustomToolUseID: "sevt_2", Content: []sessions.ContentBlockParam{}}, p)
}

// TestSendRefusedLocally checks every rule Send checks before sending:
// the call fails naming the field and nothing reaches the server.
func TestSendRefusedLocally(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	fifty := make([]sessions.EventParam, 51)
	for i := range fifty {
		fifty[i] = sessions.UserMessage("hi")
	}
	long := strings.Repeat("x", 129)
	cases := []struct {
		name   string
		events []sessions.EventParam
		field  string
	}{
		{"no events", nil, "events"},
		{"51 events", fifty, "events"},
		{"a nil event", []sessions.EventParam{nil}, "events[0]"},
		{"a message without content", []sessions.EventParam{sessions.UserMessageParam{}}, "events[0].content"},
		{"empty text", []sessions.EventParam{sessions.UserMessage("a", "")}, "events[0].content[1].text"},
		{"a nil block", []sessions.EventParam{sessions.UserMessageParam{Content: []sessions.ContentBlockParam{nil}}}, "events[0].content[0]"},
		{"a confirmation without result", []sessions.EventParam{sessions.ToolConfirmationParam{ToolUseID: "sevt_1"}}, "events[0].result"},
		{"a confirmation without tool use", []sessions.EventParam{sessions.Allow("")}, "events[0].tool_use_id"},
		{"a tool_use_id of 129", []sessions.EventParam{sessions.Deny(long, "")}, "events[0].tool_use_id"},
		{"a deny message with allow", []sessions.EventParam{sessions.ToolConfirmationParam{Result: sessions.ConfirmationAllow, ToolUseID: "sevt_1", DenyMessage: "no"}}, "events[0].deny_message"},
		{"a deny message of 10001", []sessions.EventParam{sessions.Deny("sevt_1", strings.Repeat("x", 10001))}, "events[0].deny_message"},
		{"a custom result without id", []sessions.EventParam{sessions.CustomToolResult("", "x")}, "events[0].custom_tool_use_id"},
		{"a custom result id of 129", []sessions.EventParam{sessions.CustomToolResult(long, "x")}, "events[0].custom_tool_use_id"},
		{"a custom result with empty text", []sessions.EventParam{sessions.CustomToolResult("sevt_1", "")}, "events[0].content[0].text"},
		{"a tool result without id", []sessions.EventParam{sessions.ToolResult("", "x")}, "events[0].tool_use_id"},
		{"a tool result id of 129", []sessions.EventParam{sessions.ToolResult(long)}, "events[0].tool_use_id"},
		{"a tool result with empty text", []sessions.EventParam{sessions.ToolError("sevt_1", "")}, "events[0].content[0].text"},
		{"an outcome without description", []sessions.EventParam{sessions.DefineOutcome("", sessions.TextRubric("r"))}, "events[0].description"},
		{"an outcome of 21 iterations", []sessions.EventParam{sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 21}}, "events[0].max_iterations"},
		{"a system message alone", []sessions.EventParam{sessions.SystemMessage("s")}, "events[0]"},
		{"a system message first", []sessions.EventParam{sessions.SystemMessage("s"), sessions.UserMessage("a")}, "events[0]"},
		{"a system message after an interrupt", []sessions.EventParam{sessions.Interrupt(), sessions.SystemMessage("s")}, "events[1]"},
		{"a system message after a confirmation", []sessions.EventParam{sessions.Allow("sevt_1"), sessions.SystemMessage("s")}, "events[1]"},
		{"two system messages", []sessions.EventParam{sessions.UserMessage("a"), sessions.SystemMessage("s"), sessions.SystemMessage("t")}, "events[1]"},
		{"a system message with empty text", []sessions.EventParam{sessions.UserMessage("a"), sessions.SystemMessage("")}, "events[1].content[0].text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := f.sent()
			_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: tc.events})
			reftest.RequireLocal(t, err, tc.field)
			require.Equal(t, before, f.sent(), "nothing is sent")
		})
	}

	t.Run("list, stream and the session id", func(t *testing.T) {
		before := f.sent()
		_, err := f.client.Sessions.Events.Send(ctx, "", sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("a")}})
		reftest.RequireLocal(t, err, "session_id")
		_, err = f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Limit: 1001})
		reftest.RequireLocal(t, err, "limit")
		_, err = f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Limit: -1})
		reftest.RequireLocal(t, err, "limit")
		_, err = f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Types: []sessions.EventType{"agent.message", ""}})
		reftest.RequireLocal(t, err, "types")
		_, err = f.client.Sessions.Events.List(ctx, "", sessions.EventListParams{})
		reftest.RequireLocal(t, err, "session_id")
		_, err = f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{EventDeltas: make([]sessions.EventType, 101)})
		reftest.RequireLocal(t, err, "event_deltas")
		_, err = f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true, ResumeAfter: sessions.Position{EventID: "sevt_1"}})
		reftest.RequireLocal(t, err, "resume_after")
		_, err = f.client.Sessions.Events.Stream(ctx, "", sessions.StreamParams{NoReconnect: true})
		reftest.RequireLocal(t, err, "session_id")
		require.Equal(t, before, f.sent(), "nothing is sent")
	})

	t.Run("at the limits", func(t *testing.T) {
		_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: fifty[:50]})
		require.NoError(t, err, "50 events")
		_, err = f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Limit: 1000})
		require.NoError(t, err)
		st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{
			NoReconnect: true, EventDeltas: []sessions.EventType{sessions.EventAgentMessage, sessions.EventAgentThinking},
		})
		require.NoError(t, err)
		require.NoError(t, st.Close())
	})
}

// TestServerRefusals checks rules only the server can judge: they come
// back as API errors and nothing is recorded.
func TestServerRefusals(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, lookupOrder)
	missing := "sevt_011CZkZAtmR3yMPDzynEDxu7"

	_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.Allow(missing)}})
	reftest.RequireInvalid(t, err, "events[0].tool_use_id: no tool use `"+missing+"` in this session")
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.CustomToolResult(missing, "x")}})
	reftest.RequireInvalid(t, err, "events[0].custom_tool_use_id: no custom tool use `"+missing+"` in this session")
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.ToolResult(missing, "x")}})
	reftest.RequireInvalid(t, err, "events[0].type: `user.tool_result` is only valid on self_hosted environments")
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{
		sessions.UnknownEventParam{Type: "user.future", JSON: json.RawMessage(`{"type":"user.future"}`)},
	}})
	reftest.RequireInvalid(t, err, "events[0].type: must be one of")
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.InterruptThread("sthr_011CZkZAtmR3yMPDzynEDxu7")}})
	reftest.RequireInvalid(t, err, "events[0].session_thread_id: thread `sthr_011CZkZAtmR3yMPDzynEDxu7` not found in this session")
	_, err = f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Order: "sideways"})
	reftest.RequireInvalid(t, err, "order: must be one of `asc`, `desc`")
	_, err = f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{EventDeltas: []sessions.EventType{"agent.tool_use"}})
	reftest.RequireInvalid(t, err, "event_deltas: must be one of `agent.message`, `agent.thinking`")

	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{})
	require.NoError(t, err)
	require.Empty(t, page.Data, "a refused batch records nothing")

	unknown := "sesn_011CZkZAtmR3yMPDzynEDxu7"
	_, err = f.client.Sessions.Events.Send(ctx, unknown, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("a")}})
	reftest.RequireNotFound(t, err, "Session `"+unknown+"` not found.")
	_, err = f.client.Sessions.Events.List(ctx, unknown, sessions.EventListParams{})
	reftest.RequireNotFound(t, err, "Session `"+unknown+"` not found.")
	_, err = f.client.Sessions.Events.Stream(ctx, unknown, sessions.StreamParams{})
	reftest.RequireNotFound(t, err, "Session `"+unknown+"` not found.")
	_, err = f.client.Sessions.Events.Stream(ctx, unknown, sessions.StreamParams{NoReconnect: true})
	reftest.RequireNotFound(t, err, "Session `"+unknown+"` not found.")

	_, err = f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("a")}})
	reftest.RequireConflict(t, err, "session_id: session `"+s.ID+"` is archived")
}
