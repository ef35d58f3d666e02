package sessions_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The turn-limit kinds of session.error are known kinds without details:
// they decode with nil Details (not UnknownErrorDetails), end the turn
// with retries_exhausted, and survive a round trip.
func TestTurnLimitErrorKinds(t *testing.T) {
	for _, kind := range []string{"tool_use_limit_reached_error", "compaction_limit_reached_error"} {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			s := f.newSession(t, f.params())
			tl := f.tail(t, s.ID, sessions.StreamParams{})
			f.script(t, s.ID, []refserver.Step{refserver.Fail(kind, "The turn hit its limit.")})
			f.send(t, s.ID, sessions.UserMessage("Go."))
			got := tl.untilIdle()
			failure := only[*sessions.SessionErrorEvent](t, got)
			require.Equal(t, sessions.SessionError{Type: kind, Message: "The turn hit its limit.",
				RetryStatus: sessions.RetryExhausted{}}, failure.Error)
			require.Equal(t, sessions.StopRetriesExhausted{}, idleReason(t, got))

			out, err := json.Marshal(failure.Error)
			require.NoError(t, err)
			require.JSONEq(t, `{"type":"`+kind+`","message":"The turn hit its limit.","retry_status":{"type":"exhausted"}}`, string(out))
			var back sessions.SessionError
			require.NoError(t, json.Unmarshal(out, &back))
			require.Equal(t, failure.Error, back)
		})
	}
}
