package messages_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	sse "github.com/tmaxmax/go-sse"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// bodies records the body of every response the client receives.
type bodies struct {
	tr   *http.Transport
	mu   sync.Mutex
	seen [][]byte
}

func (b *bodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.tr.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.seen = append(b.seen, data)
	b.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

func (b *bodies) last(t *testing.T) []byte {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	require.NotEmpty(t, b.seen)
	return b.seen[len(b.seen)-1]
}

// TestWireRoundTrip checks the round trip of every wire type on what the
// reference server sends, for a request of every kind of answer, created
// and streamed: each response and each event marshals back to the JSON it
// was read from (up to null members, which may be left out), and that JSON
// decodes to an equal value. Every response type of the package must have
// been seen.
func TestWireRoundTrip(t *testing.T) {
	rec := &bodies{tr: &http.Transport{}}
	t.Cleanup(rec.tr.CloseIdleConnections)
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
			opts := append([]option.Option{option.WithHTTPClient(&http.Client{Transport: rec})}, tc.opts...)
			m, err := client.Messages.Create(ctx, tc.params, opts...)
			require.NoError(t, err)
			check(t, rec.last(t), *m)

			st, err := client.Messages.Stream(ctx, tc.params, opts...)
			require.NoError(t, err)
			defer st.Close()
			var events []messages.StreamEvent
			for ev, err := range st.Events() {
				require.NoError(t, err)
				events = append(events, ev)
			}
			var frames []*sse.Event
			for f, err := range sse.Read(bytes.NewReader(rec.last(t)), nil) {
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
			check(t, rec.last(t), *n)
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
