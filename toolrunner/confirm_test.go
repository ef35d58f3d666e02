package toolrunner_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

var (
	askingToolset = agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)}}
	askingMCP     = agents.MCPToolset{MCPServerName: "tickets"}
)

func TestConfirmations(t *testing.T) {
	for _, tt := range []struct {
		name     string
		step     refserver.Step
		decision toolrunner.Decision
		isError  bool
		want     string
	}{
		{"allow built-in", refserver.UseTool("bash", map[string]any{"command": "ls"}, refserver.ToolOutput("main.go", false)),
			toolrunner.Allow(), false, "main.go"},
		{"deny built-in", refserver.UseTool("bash", map[string]any{"command": "rm -rf /"}),
			toolrunner.Deny("Never delete the file system."), true, "Never delete the file system."},
		{"deny without a message", refserver.UseTool("bash", map[string]any{"command": "rm -rf /"}),
			toolrunner.Decision{}, true, "The user denied this tool call."},
		{"allow MCP", refserver.UseMCPTool("tickets", "create_issue", map[string]any{"title": "Flaky"}, refserver.ToolOutput("Created #88", false)),
			toolrunner.Allow(), false, "Created #88"},
		{"deny MCP", refserver.UseMCPTool("tickets", "create_issue", map[string]any{"title": "Flaky"}),
			toolrunner.Deny("Not on a Friday."), true, "Not on a Friday."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var c counter
			lookup := c.tool("lookup_order")
			a := f.agent(t, []tool.Tool{lookup}, askingToolset, askingMCP)
			id := f.session(t, a, []refserver.Step{tt.step, refserver.Say("Done.")})
			var mu sync.Mutex
			var asked []toolrunner.ConfirmRequest
			r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithConfirm(func(_ context.Context, req toolrunner.ConfirmRequest) toolrunner.Decision {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, req)
				return tt.decision
			}))
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Go.")
			evs := f.waitTurns(t, id, 1)
			stop()
			require.ErrorIs(t, wait(), context.Canceled)

			mu.Lock()
			defer mu.Unlock()
			require.Len(t, asked, 1)
			req := asked[0]
			require.Equal(t, id, req.SessionID)
			confs := eventsOf[*sessions.ToolConfirmationEvent](evs)
			require.Len(t, confs, 1)
			require.Equal(t, req.ToolUseID, confs[0].ToolUseID)
			var content []sessions.ContentBlock
			var isError bool
			switch ev := req.Event.(type) {
			case *sessions.AgentToolUseEvent:
				require.Equal(t, "bash", req.Name)
				require.Empty(t, req.MCPServerName)
				res := eventsOf[*sessions.AgentToolResultEvent](evs)
				require.Len(t, res, 1)
				require.Equal(t, ev.ID, res[0].ToolUseID)
				content, isError = res[0].Content, res[0].IsError
			case *sessions.AgentMCPToolUseEvent:
				require.Equal(t, "create_issue", req.Name)
				require.Equal(t, "tickets", req.MCPServerName)
				require.JSONEq(t, `{"title":"Flaky"}`, string(req.Input))
				res := eventsOf[*sessions.AgentMCPToolResultEvent](evs)
				require.Len(t, res, 1)
				content, isError = res[0].Content, res[0].IsError
			default:
				t.Fatalf("event %T", req.Event)
			}
			require.Equal(t, tt.isError, isError)
			require.Equal(t, tt.want, text(content))
			if tt.decision.Allow {
				require.Equal(t, sessions.ConfirmationAllow, confs[0].Result)
			} else {
				require.Equal(t, sessions.ConfirmationDeny, confs[0].Result)
				require.Equal(t, tt.decision.Message, confs[0].DenyMessage)
			}
		})
	}
}

// TestConfirmationsAreLeftToTheApplicationWithoutWithConfirm.
func TestConfirmationsAreLeftToTheApplicationWithoutWithConfirm(t *testing.T) {
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup}, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), useOrder("lookup_order", "5"), refserver.Say("Done.")})
	var l logs
	r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	var use *sessions.AgentToolUseEvent
	eventually(t, func() bool {
		uses := eventsOf[*sessions.AgentToolUseEvent](f.history(t, id))
		if len(uses) == 1 {
			use = uses[0]
		}
		return use != nil
	}, "the bash call")
	sends := f.env.Count(http.MethodPost, "/v1/sessions/"+id+"/events")
	require.Equal(t, 1, sends, "only the test's message was sent")
	f.send(t, id, sessions.Allow(use.ID))
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Len(t, eventsOf[*sessions.ToolConfirmationEvent](evs), 1)
	require.Equal(t, []string{"5"}, c.orders())
}

// TestConfirmPanicDenies: a confirm function that panics denies the call.
func TestConfirmPanicDenies(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	r := newRunner(t, f, nil, toolrunner.WithConfirm(func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision {
		panic("no policy loaded")
	}))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	confs := eventsOf[*sessions.ToolConfirmationEvent](evs)
	require.Len(t, confs, 1)
	require.Equal(t, sessions.ConfirmationDeny, confs[0].Result)
}

// TestCloseDoesNotWaitForAConfirmThatIgnoresItsContext: past Close's
// deadline a hung confirm function is abandoned and nothing is sent.
func TestCloseDoesNotWaitForAConfirmThatIgnoresItsContext(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	asked, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	defer func() { close(release); <-returned }()
	r, err := toolrunner.New(f.client.Sessions, nil, toolrunner.WithConfirm(func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision {
		defer close(returned)
		close(asked)
		<-release // ignores its context
		return toolrunner.Allow()
	}))
	require.NoError(t, err)
	require.NoError(t, r.Add(id))
	f.say(t, id, "Go.")
	<-asked
	c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, r.Close(c), context.DeadlineExceeded)
	require.Empty(t, eventsOf[*sessions.ToolConfirmationEvent](f.history(t, id)))
}
