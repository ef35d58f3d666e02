package messages_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

var (
	frozen      = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)
	thinkingKey = []byte("a fixed key for thinking signatures")
)

// twin starts a deterministic server: two twins given the same requests
// answer byte for byte the same (ids, signatures, clock).
func twin(t *testing.T) (*reftest.Env, *agentplatform.Client) {
	return newEnv(t, refserver.WithIDs(refserver.SequentialIDs()), refserver.WithClock(refserver.NewManualClock(frozen)),
		refserver.WithThinkingKey(thinkingKey))
}

var weatherTool = messages.CustomTool{
	Name: "get_weather", Description: "Get the current weather",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
}

var timeTool = messages.CustomTool{
	Name: "get_time", Description: "Current time",
	InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
}

// example28 is the request of docs/messages-wire.md 2.8, without stream.
func example28() messages.MessageParams {
	return messages.MessageParams{
		Model:        models.VendorSonnet55,
		MaxTokens:    4096,
		System:       messages.SystemBlocks{{Text: "You are a weather assistant.", CacheControl: messages.Ephemeral(messages.CacheTTL1h)}},
		Messages:     []messages.MessageParam{messages.UserText(`What is the weather in Paris? Use get_weather {"location": "Paris"}`)},
		Tools:        []messages.Tool{weatherTool},
		ToolChoice:   messages.ToolChoiceAuto{},
		Thinking:     messages.ThinkingEnabled{BudgetTokens: 2048},
		OutputConfig: &messages.OutputConfig{Effort: messages.EffortMedium},
		ServiceTier:  messages.ServiceTierAuto,
		Metadata:     &messages.Metadata{UserID: "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
	}
}

func with(p messages.MessageParams, edit func(*messages.MessageParams)) messages.MessageParams {
	edit(&p)
	return p
}

// exampleCases is a request for every kind of answer of the fake model
// (docs/messages-wire.md 10): each block kind, each stop reason, the server
// tools, MCP, citations and fallback. want checks the answer.
var exampleCases = []struct {
	name   string
	params messages.MessageParams
	opts   []option.Option
	want   func(t *testing.T, m *messages.Message)
}{
	{"hello", prompt("Hello there"), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, "You said: Hello there", m.Text())
		require.Equal(t, 10, m.Usage.InputTokens)
		require.Equal(t, 6, m.Usage.OutputTokens)
	}},
	{"thinking and a tool call (example 2.8)", example28(), nil, func(t *testing.T, m *messages.Message) {
		require.Len(t, m.Content, 3)
		require.Equal(t, "The user asked: What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}", m.Content[0].(messages.ThinkingBlock).Thinking)
		require.Equal(t, "I'll use get_weather.", m.Content[1].(messages.TextBlock).Text)
		use := m.Content[2].(messages.ToolUseBlock)
		require.Equal(t, "get_weather", use.Name)
		require.JSONEq(t, `{"location":"Paris"}`, string(use.Input))
		require.Equal(t, messages.StopToolUse, m.StopReason)
		require.Equal(t, messages.Usage{
			InputTokens: 21, CacheCreationInputTokens: 51,
			CacheCreation: messages.CacheCreation{Ephemeral1hInputTokens: 51},
			OutputTokens:  35, OutputTokensDetails: &messages.OutputTokensDetails{ThinkingTokens: 21},
			ServiceTier: messages.ServiceTierStandard, InferenceGeo: "global", Speed: messages.SpeedStandard,
		}, m.Usage)
	}},
	{"tool with no arguments", with(prompt("Call get_time please"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{timeTool}
	}), nil, func(t *testing.T, m *messages.Message) {
		use := m.ToolUses()
		require.Len(t, use, 1)
		require.Equal(t, "{}", string(use[0].Input))
		require.Equal(t, 37, m.Usage.InputTokens)
		require.Equal(t, 8, m.Usage.OutputTokens)
		require.Equal(t, messages.StopToolUse, m.StopReason)
	}},
	{"redacted and omitted thinking", with(prompt("Hello there [[refserver:redact]]"), func(p *messages.MessageParams) {
		p.MaxTokens = 2048
		p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1024, Display: messages.ThinkingOmitted}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, "", m.Content[0].(messages.ThinkingBlock).Thinking)
		require.NotEmpty(t, m.Content[0].(messages.ThinkingBlock).Signature)
		require.NotEmpty(t, m.Content[1].(messages.RedactedThinkingBlock).Data)
		require.Equal(t, "You said: Hello there", m.Text())
	}},
	{"adaptive thinking", with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.Thinking = messages.ThinkingAdaptive{}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.IsType(t, messages.ThinkingBlock{}, m.Content[0])
		require.NotNil(t, m.Usage.OutputTokensDetails)
	}},
	{"web search", with(prompt("web_search go 1.26 release notes"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.WebSearchTool{MaxUses: 3}}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, "I'll use web_search.", m.Content[0].(messages.TextBlock).Text)
		use := find[messages.ServerToolUseBlock](t, m)
		require.Equal(t, "web_search", use.Name)
		res := find[messages.WebSearchToolResultBlock](t, m)
		require.Equal(t, use.ID, res.ToolUseID)
		require.Len(t, res.Content.(messages.WebSearchResults), 2)
		require.Equal(t, &messages.ServerToolUsage{WebSearchRequests: 1}, m.Usage.ServerToolUse)
		require.Equal(t, messages.StopEndTurn, m.StopReason)
	}},
	{"code execution", with(prompt("code_execution print(2+2)"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CodeExecutionTool{Type: messages.CodeExecution20250522}}
	}), nil, func(t *testing.T, m *messages.Message) {
		res := find[messages.CodeExecutionToolResultBlock](t, m)
		require.Equal(t, "print(2+2)\n", res.Content.(messages.CodeExecutionResult).Stdout)
		require.NotNil(t, m.Container)
	}},
	{"bash code execution", with(prompt("code_execution echo 4"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CodeExecutionTool{}}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, "bash_code_execution", find[messages.ServerToolUseBlock](t, m).Name)
		require.IsType(t, messages.BashCodeExecutionResult{}, find[messages.BashCodeExecutionToolResultBlock](t, m).Content)
	}},
	{"mcp", with(prompt("Please call mcp:example-mcp/echo now"), func(p *messages.MessageParams) {
		p.MCPServers = []messages.MCPServer{{Name: "example-mcp", URL: "https://mcp.example.com/sse", AuthorizationToken: "secret-token"}}
		p.Tools = []messages.Tool{messages.MCPToolset{MCPServerName: "example-mcp"}}
	}), nil, func(t *testing.T, m *messages.Message) {
		use := find[messages.MCPToolUseBlock](t, m)
		require.Equal(t, "echo", use.Name)
		require.Equal(t, "example-mcp", use.ServerName)
		res := find[messages.MCPToolResultBlock](t, m)
		require.Equal(t, use.ID, res.ToolUseID)
		require.Equal(t, messages.Blocks{messages.TextBlock{Text: "echo ok"}}, res.Content)
	}},
	{"citations", messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 1024, Messages: []messages.MessageParam{messages.UserBlocks(
		messages.DocumentBlock{Source: messages.PlainTextSource{Data: "Quarterly revenue rose 12%. Costs were flat."}, Title: "Q3 memo",
			Context: "Internal, not for release", Citations: &messages.CitationsConfig{Enabled: true}},
		messages.TextBlock{Text: "What does the memo say?"},
	)}}, nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, messages.TextBlock{Text: "The document says: "}, m.Content[0])
		require.Equal(t, messages.TextBlock{Text: "Quarterly revenue rose 12%.", Citations: []messages.Citation{messages.CharLocation{
			CitedText: "Quarterly revenue rose 12%.", DocumentTitle: str("Q3 memo"), EndCharIndex: 27}}}, m.Content[1])
	}},
	{"images and search results", messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 1024, Messages: []messages.MessageParam{messages.UserBlocks(
		messages.ImageBlock{Source: messages.Base64Source{MediaType: "image/png", Data: "iVBORw0KGgo="}},
		messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"}},
		messages.SearchResultBlock{Source: "kb://1", Title: "KB", Content: []messages.TextBlock{{Text: "x"}}},
		messages.DocumentBlock{Source: messages.ContentSource{Content: messages.Text("inline")}},
		messages.TextBlock{Text: "Describe"},
	)}}, nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, "You said: Describe", m.Text())
		require.Greater(t, m.Usage.InputTokens, 2000, "images cost 1,000 tokens each")
	}},
	{"fallback", with(prompt("Hello there [[refserver:refuse cyber]]"), func(p *messages.MessageParams) {
		p.Model = models.VendorOpus55
		p.Fallbacks = messages.FallbacksDefault{}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, models.VendorSonnet55, m.Model)
		require.Equal(t, messages.FallbackBlock{From: messages.FallbackModel{Model: models.VendorOpus55}, To: messages.FallbackModel{Model: models.VendorSonnet55}}, m.Content[0])
		require.Equal(t, "You said: Hello there", m.Text())
		require.Len(t, m.Usage.Iterations, 2)
		require.Equal(t, "fallback_message", m.Usage.Iterations[1].Type)
	}},
	{"refusal", with(prompt("Hello there [[refserver:refuse cyber]]"), func(p *messages.MessageParams) { p.Model = models.VendorOpus55 }), nil,
		func(t *testing.T, m *messages.Message) {
			require.Empty(t, m.Content)
			require.Equal(t, messages.StopRefusal, m.StopReason)
			require.Equal(t, &messages.StopDetails{Type: "refusal", Category: "cyber", Explanation: "This request was declined because it could enable cyber harm."}, m.StopDetails)
		}},
	{"stop sequence", with(prompt("Hello there"), func(p *messages.MessageParams) { p.StopSequences = []string{"there"} }), nil,
		func(t *testing.T, m *messages.Message) {
			require.Equal(t, "You said: Hello ", m.Text())
			require.Equal(t, messages.StopSequenceMatched, m.StopReason)
			require.Equal(t, "there", m.StopSequence)
		}},
	{"max_tokens 0", with(prompt("Hello there"), func(p *messages.MessageParams) { p.MaxTokens = 0 }), nil,
		func(t *testing.T, m *messages.Message) {
			require.Empty(t, m.Content)
			require.Equal(t, messages.StopMaxTokens, m.StopReason)
			require.Equal(t, 0, m.Usage.OutputTokens)
		}},
	{"max_tokens cut", with(prompt("Hello there, how are you doing today?"), func(p *messages.MessageParams) { p.MaxTokens = 3 }), nil,
		func(t *testing.T, m *messages.Message) {
			require.Equal(t, messages.StopMaxTokens, m.StopReason)
			require.Equal(t, "You said: He", m.Text()) // 3 tokens are 12 runes
		}},
	{"json output", with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.OutputConfig = &messages.OutputConfig{Format: &messages.JSONSchemaFormat{Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}`)}}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.JSONEq(t, `{"a":"example","b":0}`, m.Text())
	}},
	{"prefill", with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantText("You said:"))
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Equal(t, " Hello there", m.Text())
	}},
	{"forced tool", with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{weatherTool, timeTool}
		p.ToolChoice = messages.ToolChoiceTool{Name: "get_weather"}
	}), nil, func(t *testing.T, m *messages.Message) {
		require.Len(t, m.Content, 1, "no preface before a forced call")
		require.JSONEq(t, `{"location":"example"}`, string(m.Content[0].(messages.ToolUseBlock).Input))
	}},
	{"say and pause_turn directives", prompt("Hi [[refserver:say Bonjour à tous !]] [[refserver:stop_reason pause_turn]]"), nil,
		func(t *testing.T, m *messages.Message) {
			require.Equal(t, "Bonjour à tous !", m.Text())
			require.Equal(t, messages.StopPauseTurn, m.StopReason)
		}},
}

// find returns the first block of type T.
func find[T messages.ContentBlock](t *testing.T, m *messages.Message) T {
	t.Helper()
	for _, b := range m.Content {
		if v, ok := b.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("no %T in %+v", zero, m.Content)
	return zero
}

// TestStreamAccumulatesToCreate checks docs/messages-wire.md 5.9: for the
// same request the accumulated stream equals the non-streamed message,
// field for field. Each side runs on its own twin server, so that ids,
// signatures and cache state are the same.
func TestStreamAccumulatesToCreate(t *testing.T) {
	for _, tc := range exampleCases {
		t.Run(tc.name, func(t *testing.T) {
			_, c1 := twin(t)
			_, c2 := twin(t)
			created, err := c1.Messages.Create(ctx, tc.params, tc.opts...)
			require.NoError(t, err)
			tc.want(t, created)
			st, err := c2.Messages.Stream(ctx, tc.params, tc.opts...)
			require.NoError(t, err)
			defer st.Close()
			acc, err := st.Message()
			require.NoError(t, err)
			if diff := cmp.Diff(created, acc); diff != "" {
				t.Fatalf("streamed message differs from the created one (-create +stream):\n%s", diff)
			}
		})
	}
}

// TestResponsesGoBackUnchanged sends every kind of answer back as the
// assistant turn of a next request, which the server must accept (tool
// results added where the turn called client tools).
func TestResponsesGoBackUnchanged(t *testing.T) {
	for _, tc := range exampleCases {
		t.Run(tc.name, func(t *testing.T) {
			env, client := twin(t)
			m, err := client.Messages.Create(ctx, tc.params, tc.opts...)
			require.NoError(t, err)
			if len(m.Content) == 0 {
				return // nothing to send back
			}
			next := tc.params
			next.Messages = append(append([]messages.MessageParam(nil), tc.params.Messages...), m.Param())
			var results []messages.ContentBlock
			for _, use := range m.ToolUses() {
				results = append(results, messages.ToolResultBlock{ToolUseID: use.ID, Content: messages.Text("done")})
			}
			if results != nil {
				next.Messages = append(next.Messages, messages.UserBlocks(results...))
			} else {
				next.Messages = append(next.Messages, messages.UserText("Thanks"))
			}
			next.ToolChoice = nil
			again, err := client.Messages.Create(ctx, next, tc.opts...)
			require.NoError(t, err)
			require.NotEmpty(t, again.Content)
			sent := lastBody(t, env)["messages"].([]any)
			back, err := json.Marshal(m.Content)
			require.NoError(t, err)
			echoed, err := json.Marshal(sent[len(tc.params.Messages)].(map[string]any)["content"])
			require.NoError(t, err)
			require.JSONEq(t, string(back), string(echoed))
		})
	}
}

// TestStreamEventsOfExample28 checks the events of docs/messages-wire.md
// 5.10 as the SDK yields them: the ping skipped, the deltas typed.
func TestStreamEventsOfExample28(t *testing.T) {
	_, client := twin(t)
	st, err := client.Messages.Stream(ctx, example28())
	require.NoError(t, err)
	defer st.Close()
	var got []string
	for ev, err := range st.Events() {
		require.NoError(t, err)
		switch ev := ev.(type) {
		case messages.MessageStartEvent:
			require.Equal(t, 1, ev.Message.Usage.OutputTokens, "a placeholder")
			require.Equal(t, 51, ev.Message.Usage.CacheCreationInputTokens, "input usage is final already")
			got = append(got, "message_start")
		case messages.ContentBlockStartEvent:
			got = append(got, fmt.Sprintf("start %d %T", ev.Index, ev.ContentBlock))
		case messages.ContentBlockDeltaEvent:
			switch d := ev.Delta.(type) {
			case messages.TextDelta:
				got = append(got, "text "+d.Text)
			case messages.InputJSONDelta:
				got = append(got, "json "+d.PartialJSON)
			case messages.ThinkingDelta:
				got = append(got, "thinking")
			case messages.SignatureDelta:
				got = append(got, "signature")
			}
		case messages.ContentBlockStopEvent:
			got = append(got, fmt.Sprintf("stop %d", ev.Index))
		case messages.MessageDeltaEvent:
			require.Equal(t, 35, *ev.Usage.OutputTokens)
			got = append(got, "message_delta "+string(ev.Delta.StopReason))
		case messages.MessageStopEvent:
			got = append(got, "message_stop")
		default:
			t.Fatalf("unexpected %T", ev)
		}
	}
	require.Equal(t, []string{
		"message_start",
		"start 0 messages.ThinkingBlock", "thinking", "thinking", "signature", "stop 0",
		"start 1 messages.TextBlock", "text I'll", "text  use", "text  get_weather.", "stop 1",
		"start 2 messages.ToolUseBlock", "json ", `json {"location":"Par`, `json is"}`, "stop 2",
		"message_delta tool_use", "message_stop",
	}, got)
	m, err := st.Message()
	require.NoError(t, err)
	require.Equal(t, 35, m.Usage.OutputTokens, "usage replaced, not added to the placeholder")
}

// TestStreamErrorMidway checks docs/messages-wire.md 5.8: an error event
// after three events ends the stream with the typed error, and the partial
// message stays.
func TestStreamErrorMidway(t *testing.T) {
	_, client := newEnv(t)
	st, err := client.Messages.Stream(ctx, prompt("Hello there [[refserver:error overloaded_error after=3]]"))
	require.NoError(t, err)
	defer st.Close()
	var evs []messages.StreamEvent
	var streamErr error
	for ev, err := range st.Events() {
		if err != nil {
			streamErr = err
			continue
		}
		evs = append(evs, ev)
	}
	require.Len(t, evs, 3)
	var apiErr *apierror.Error
	require.ErrorAs(t, streamErr, &apiErr)
	require.ErrorIs(t, streamErr, apierror.ErrOverloaded)
	require.Equal(t, apierror.TypeOverloaded, apiErr.Type)
	require.Equal(t, "Overloaded", apiErr.Message)
	require.NotEmpty(t, apiErr.RequestID)
	require.Equal(t, st.Header().Get("request-id"), apiErr.RequestID)

	m, err := st.Message()
	require.Same(t, streamErr, err)
	require.Equal(t, "You", m.Text(), "the partial message stays available")
	require.Equal(t, messages.StopReason(""), m.StopReason)
}

// TestStreamErrorBeforeTheStream is an error directive without after=: the
// HTTP error, no stream, and no retry of a 4xx.
func TestStreamErrorBeforeTheStream(t *testing.T) {
	env, client := newEnv(t)
	_, err := client.Messages.Stream(ctx, prompt("Hello there [[refserver:error rate_limit_error]]"), option.WithMaxRetries(1))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 429, apiErr.StatusCode)
	require.Equal(t, "Rate limited", apiErr.Message)
	require.Equal(t, 2, env.Count("POST", "/v1/messages"), "retried before the stream starts")
}

// TestStreamCutIsUnexpectedEOF drops the connection mid-stream (a fault
// without a status): the stream ends with io.ErrUnexpectedEOF or the
// transport's error, never silently, and is not retried.
func TestStreamCutIsAnError(t *testing.T) {
	env, client := newEnv(t)
	env.Server.InjectFault(refserver.Fault{Path: "/v1/messages", StreamCutAfter: 4})
	st, err := client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	defer st.Close()
	m, err := st.Message()
	require.Error(t, err)
	require.NotNil(t, m)
	require.Equal(t, 1, env.Count("POST", "/v1/messages"))
}

// TestTimeToFirstChunk: the first content_block_delta, not message_start,
// is the first chunk (docs/messages-wire.md 11).
func TestTimeToFirstChunk(t *testing.T) {
	_, client := newEnv(t)
	st, err := client.Messages.Stream(ctx, prompt("Hello there [[refserver:delay 30]]"))
	require.NoError(t, err)
	defer st.Close()
	require.Zero(t, st.TimeToFirstChunk())
	require.True(t, st.FirstChunkAt().IsZero())
	var atStart time.Duration
	for ev, err := range st.Events() {
		require.NoError(t, err)
		switch ev.(type) {
		case messages.MessageStartEvent, messages.ContentBlockStartEvent:
			require.Zero(t, st.TimeToFirstChunk(), "metadata is not a chunk")
		case messages.ContentBlockDeltaEvent:
			if atStart == 0 {
				atStart = st.TimeToFirstChunk()
			}
		}
	}
	ttfc := st.TimeToFirstChunk()
	require.Equal(t, atStart, ttfc, "set once, at the first delta")
	require.GreaterOrEqual(t, ttfc, 60*time.Millisecond, "three delayed events come before the first delta")
	require.Equal(t, st.StartedAt().Add(ttfc), st.FirstChunkAt())

	st2, err := client.Messages.Stream(ctx, with(prompt("Hello there"), func(p *messages.MessageParams) { p.MaxTokens = 0 }))
	require.NoError(t, err)
	defer st2.Close()
	_, err = st2.Message()
	require.NoError(t, err)
	require.Zero(t, st2.TimeToFirstChunk(), "a stream without content has no first chunk")
}

// TestStreamCloseAndCancel: leaving early, closing from another goroutine
// and cancelling end the stream, and leak nothing (goleak). The slow
// stream waits an hour before each event, so only Close or the
// cancellation can end it; they come once the loop reads the stream's body
// (reftest.FirstRead), so they end a loop that waits for an event.
func TestStreamCloseAndCancel(t *testing.T) {
	_, client := newEnv(t)
	slow := prompt("one two three four five six seven eight [[refserver:delay 3600000]]")

	st, err := client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	for range st.Events() {
		break
	}
	m, err := st.Message()
	require.ErrorIs(t, err, messages.ErrIncomplete)
	require.NotNil(t, m)
	require.NoError(t, st.Close())
	require.NoError(t, st.Close(), "twice is harmless")

	reading, read := reftest.FirstRead("/v1/messages")
	st, err = client.Messages.Stream(ctx, slow, reading)
	require.NoError(t, err)
	closed := reftest.When(t, read, st.Close)
	for _, err := range st.Events() {
		require.NoError(t, err, "Close ends the loop quietly")
	}
	require.NoError(t, <-closed)

	cctx, cancel := context.WithCancel(ctx)
	reading, read = reftest.FirstRead("/v1/messages")
	st, err = client.Messages.Stream(cctx, slow, reading)
	require.NoError(t, err)
	defer st.Close()
	reftest.When(t, read, func() error { cancel(); return nil })
	_, err = st.Message()
	require.ErrorIs(t, err, context.Canceled)

	st, err = client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	require.NoError(t, st.Close(), "closing a stream never read releases it")
	_, err = st.Message()
	require.ErrorIs(t, err, messages.ErrIncomplete)
}
