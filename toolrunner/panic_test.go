package toolrunner_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// TestPanicStackGoesOnlyToTheLog: the recorded result of a panicking tool
// names the tool and the panic's value, and holds no stack (nor source
// paths); the stack goes to the runner's logger, else the client's.
func TestPanicStackGoesOnlyToTheLog(t *testing.T) {
	for _, tt := range []struct {
		name   string
		runner bool // whose logger: the runner's option, or the client's
	}{{"runner's logger", true}, {"client's logger", false}} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			crash := tool.Must(tool.New("lookup_order", "Looks up an order.", func(context.Context, orderInput) (tool.Result, error) {
				var orders []string
				return tool.Text(orders[3]), nil // index out of range
			}))
			a := f.agent(t, []tool.Tool{crash})
			id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "9"), refserver.Say("Sorry.")})
			var l logs
			client := f.client
			var opts []toolrunner.Option
			if tt.runner {
				opts = append(opts, toolrunner.WithLogger(l.logger()))
			} else {
				client = f.env.Client(t, option.WithLogger(l.logger()))
			}
			r, err := toolrunner.New(client.Sessions, []tool.Tool{crash}, opts...)
			require.NoError(t, err)
			defer func() { require.NoError(t, r.Close(ctx)) }()
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Where is order 9?")
			res := onlyResult(t, f.waitTurns(t, id, 1))
			stop()
			require.ErrorIs(t, wait(), context.Canceled)

			require.True(t, res.IsError)
			got := text(res.Content)
			require.Equal(t, "tool lookup_order panicked: runtime error: index out of range [3] with length 0", got)
			require.NotContains(t, got, "goroutine ")
			require.NotContains(t, got, ".go:")
			require.True(t, l.has("ERROR", "tool panicked", "call_id="+res.CustomToolUseID, "tool=lookup_order",
				"goroutine ", "panic_test.go"), "the stack is logged: %v", l.all())
		})
	}
}
