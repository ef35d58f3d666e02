package messages_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	sse "github.com/tmaxmax/go-sse"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// TestWireRoundTrip checks the round trip of every wire type on what the
// reference server sends, for a request of every kind of answer, created
// and streamed: each response and each event marshals back to the JSON it
// was read from (up to null members, which may be left out), and that JSON
// decodes to an equal value. Every response type of the package must have
// been seen.
func TestWireRoundTrip(t *testing.T) {
	var rec wiretest.Recorder
	seen := map[string]bool{}
	check := func(t *testing.T, wire []byte, v any) {
		t.Helper()
		out, err := json.Marshal(v)
		require.NoError(t, err)
		if !messages.JSONEqualUpToNulls(wire, out) {
			t.Errorf("%T is not written as it was read:\n read %s\nwrote %s", v, wire, out)
		}
		again := reflect.New(reflect.TypeOf(v))
		require.NoError(t, json.Unmarshal(out, again.Interface()), "%s", out)
		if diff := cmp.Diff(v, again.Elem().Interface()); diff != "" {
			t.Errorf("%s -> %s changed the %T (-first +second):\n%s", wire, out, v, diff)
		}
		wiretest.Seen(v, seen)
	}
	for _, tc := range exampleCases {
		t.Run(tc.name, func(t *testing.T) {
			_, client := twin(t)
			opts := append([]option.Option{rec.Option()}, tc.opts...)
			m, err := client.Messages.Create(ctx, tc.params, opts...)
			require.NoError(t, err)
			check(t, rec.Last(t), *m)

			st, err := client.Messages.Stream(ctx, tc.params, opts...)
			require.NoError(t, err)
			defer st.Close()
			var events []messages.StreamEvent
			for ev, err := range st.Events() {
				require.NoError(t, err)
				events = append(events, ev)
			}
			var frames []*sse.Event
			for f, err := range sse.Read(bytes.NewReader(rec.Last(t)), nil) {
				require.NoError(t, err)
				if f.Type != "ping" {
					frames = append(frames, &f)
				}
			}
			require.Len(t, frames, len(events))
			for i, ev := range events {
				check(t, []byte(frames[i].Data), ev)
			}

			n, err := client.Messages.CountTokens(ctx, tc.params.CountTokensParams(), opts...)
			require.NoError(t, err)
			check(t, rec.Last(t), *n)
		})
	}
	var missing []string
	for _, name := range []string{
		"Message", "Usage", "CacheCreation", "OutputTokensDetails", "ServerToolUsage", "UsageIteration", "StopDetails",
		"Container", "TokenCount", "Caller", "TextBlock", "ThinkingBlock", "RedactedThinkingBlock", "ToolUseBlock",
		"ServerToolUseBlock", "WebSearchToolResultBlock", "WebSearchResults", "WebSearchResult",
		"CodeExecutionToolResultBlock", "CodeExecutionResult", "BashCodeExecutionToolResultBlock",
		"BashCodeExecutionResult", "MCPToolUseBlock", "MCPToolResultBlock", "FallbackBlock", "FallbackModel",
		"CharLocation", "Blocks", "MessageStartEvent", "ContentBlockStartEvent", "ContentBlockDeltaEvent",
		"ContentBlockStopEvent", "MessageDeltaEvent", "MessageStopEvent", "MessageDelta", "MessageDeltaUsage",
		"TextDelta", "InputJSONDelta", "ThinkingDelta", "SignatureDelta", "CitationsDelta",
	} {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "types the reference server never sent")
}
