package chat_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

var chatWeather = chat.Tool{Function: chat.Function{Name: "get_weather", Description: "Get the current weather",
	Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`)}}

// TestChatCreate is the example of docs/messages-wire.md 9.3, then a tool
// call and its answer, in the OpenAI shape.
func TestChatCreate(t *testing.T) {
	env, client := newEnv(t)
	c, err := client.Create(ctx, chatPrompt(chat.SystemMessage("You are terse."), chat.UserMessage("Hello there")))
	require.NoError(t, err)
	require.Equal(t, "chat.completion", c.Object)
	require.Equal(t, models.VendorSonnet55, c.Model)
	require.Len(t, c.Choices, 1)
	require.Equal(t, chat.Message{Role: chat.RoleAssistant, Content: "You said: Hello there"}, c.Choices[0].Message, "refusal null is left out")
	require.Equal(t, chat.FinishStop, c.Choices[0].FinishReason)
	require.Equal(t, [3]int{14, 6, 20}, [3]int{c.Usage.PromptTokens, c.Usage.CompletionTokens, c.Usage.TotalTokens})
	reqs := env.Server.Requests()
	require.NotEmpty(t, reqs[0].Header.Get("Idempotency-Key"), "a non-streamed call has its idempotency key")

	conv := []chat.Message{chat.UserMessage(`What is the weather in Paris? Use get_weather {"location": "Paris"}`)}
	p := chatPrompt(conv...)
	p.Tools = []chat.Tool{chatWeather}
	c, err = client.Create(ctx, p)
	require.NoError(t, err)
	msg := c.Choices[0].Message
	require.Equal(t, chat.FinishToolCalls, c.Choices[0].FinishReason)
	require.Equal(t, "I'll use get_weather.", msg.Content)
	require.Len(t, msg.ToolCalls, 1)
	call := msg.ToolCalls[0]
	require.Equal(t, "function", call.Type)
	require.Equal(t, "get_weather", call.Function.Name)
	require.JSONEq(t, `{"location":"Paris"}`, call.Function.Arguments)

	p.Messages = append(conv, msg, chat.ToolMessage(call.ID, "15 degrees, sunny"))
	c, err = client.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny", c.Choices[0].Message.Content)
	require.Equal(t, chat.FinishStop, c.Choices[0].FinishReason)

	// Parts, a forced function and parallel_tool_calls map as 9.1 says.
	p = chatPrompt(chat.Message{Role: chat.RoleUser, Parts: []chat.ContentPart{
		chat.ImagePart{URL: "data:image/png;base64,iVBORw0KGgo=", Detail: "low"}, chat.TextPart{Text: "Hello there"}}})
	p.Tools = []chat.Tool{chatWeather, chat.FromTool(tool.Must(tool.New("get_time", "Current time.",
		func(context.Context, struct{}) (tool.Result, error) { return tool.Text("noon"), nil })))}
	p.ToolChoice = chat.ToolChoiceFunction{Name: "get_time"}
	p.ParallelToolCalls = new(false)
	c, err = client.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, "", c.Choices[0].Message.Content, "no text before a forced call: content is null")
	require.Equal(t, "get_time", c.Choices[0].Message.ToolCalls[0].Function.Name)
	require.Equal(t, "{}", c.Choices[0].Message.ToolCalls[0].Function.Arguments)
	body := lastBody(t, env)
	require.Equal(t, map[string]any{"type": "function", "function": map[string]any{"name": "get_time"}}, body["tool_choice"])

	p.ToolChoice = chat.ToolChoiceNone
	c, err = client.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, "You said: Hello there", c.Choices[0].Message.Content)
	require.Equal(t, "none", lastBody(t, env)["tool_choice"])
}

// TestChatStream checks docs/messages-wire.md 9.4: data-only chunks, the
// usage chunk, and [DONE]; the chunks add up to what Create returns.
func TestChatStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    chat.CompletionParams
	}{
		{"text", chatPrompt(chat.SystemMessage("You are terse."), chat.UserMessage("Hello there"))},
		{"tools", func() chat.CompletionParams {
			p := chatPrompt(chat.UserMessage(`Use get_weather {"location": "Paris"} and get_time`))
			p.Tools = []chat.Tool{chatWeather, {Function: chat.Function{Name: "get_time"}}}
			return p
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, client := newEnv(t)
			created, err := client.Create(ctx, tc.p)
			require.NoError(t, err)
			st, err := client.Stream(ctx, tc.p)
			require.NoError(t, err)
			defer st.Close()
			require.Equal(t, map[string]any{"include_usage": true}, lastBody(t, env)["stream_options"])
			require.Equal(t, true, lastBody(t, env)["stream"])
			reqs := env.Server.Requests()
			require.Empty(t, reqs[len(reqs)-1].Header.Values("Idempotency-Key"), "a stream cannot be replayed: no key")
			chunks := 0
			var usageChunk bool
			for chunk, err := range st.Chunks() {
				require.NoError(t, err)
				require.Equal(t, "chat.completion.chunk", chunk.Object)
				if len(chunk.Choices) == 0 {
					usageChunk = true
					require.NotNil(t, chunk.Usage)
				}
				chunks++
			}
			require.True(t, usageChunk)
			require.Greater(t, chunks, 3)
			got, err := st.Completion()
			require.NoError(t, err)
			if diff := cmp.Diff(created, got, cmpopts.IgnoreFields(chat.Completion{}, "ID", "Created")); diff != "" {
				t.Fatalf("(-create +stream):\n%s", diff)
			}
			if tc.name == "tools" {
				calls := got.Choices[0].Message.ToolCalls
				require.Len(t, calls, 2)
				require.JSONEq(t, `{"location":"Paris"}`, calls[0].Function.Arguments)
				require.Equal(t, "{}", calls[1].Function.Arguments, "a call without arguments gets \"{}\"")
			}
		})
	}

	_, client := newEnv(t)
	p := chatPrompt(chat.UserMessage("Hello there"))
	p.StreamOptions = &chat.StreamOptions{IncludeUsage: false}
	st, err := client.Stream(ctx, p)
	require.NoError(t, err)
	defer st.Close()
	c, err := st.Completion()
	require.NoError(t, err)
	require.Nil(t, c.Usage)
	require.Equal(t, "You said: Hello there", c.Choices[0].Message.Content)
}

// TestChatErrors checks docs/messages-wire.md 9.5: the OpenAI error shape
// still gives an *apierror.Error with the type, the message and the
// header's request id, before and during a stream.
func TestChatErrors(t *testing.T) {
	env, client := newEnv(t)
	p := chatPrompt(chat.UserMessage("Hello there"))
	p.Extra = map[string]json.RawMessage{"n": json.RawMessage("2")}
	_, err := client.Create(ctx, p)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 400, apiErr.StatusCode)
	require.Equal(t, apierror.TypeInvalidRequest, apiErr.Type)
	require.Equal(t, "n: must be 1", apiErr.Message)
	require.NotEmpty(t, apiErr.RequestID)
	require.Equal(t, 1, env.Count("POST", "/v1/chat/completions"), "a 400 is not retried")

	p = chatPrompt(chat.UserMessage("Hello there"))
	p.Model = "vendor-unknown-1"
	_, err = client.Stream(ctx, p)
	require.ErrorIs(t, err, apierror.ErrNotFound)

	_, err = client.Create(ctx, chatPrompt(chat.UserMessage("Hi [[refserver:error overloaded_error]]")), option.WithMaxRetries(0))
	require.ErrorIs(t, err, apierror.ErrOverloaded)

	st, err := client.Stream(ctx, chatPrompt(chat.UserMessage("Hello there [[refserver:error overloaded_error after=2]]")))
	require.NoError(t, err)
	defer st.Close()
	n := 0
	var streamErr error
	for _, err := range st.Chunks() {
		if err != nil {
			streamErr = err
			continue
		}
		n++
	}
	require.Equal(t, 2, n)
	require.ErrorAs(t, streamErr, &apiErr)
	require.ErrorIs(t, streamErr, apierror.ErrOverloaded)
	require.Equal(t, "Overloaded", apiErr.Message)
	require.Equal(t, st.Header().Get("request-id"), apiErr.RequestID)
	c, err := st.Completion()
	require.Same(t, streamErr, err)
	require.NotNil(t, c, "what arrived stays")
}

func TestChatStreamWithoutDone(t *testing.T) {
	body := `data: {"id":"msg_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}` + "\n\n"
	st, err := recordedData(t, body).Stream(ctx, chatPrompt(chat.UserMessage("x")))
	require.NoError(t, err)
	defer st.Close()
	c, err := st.Completion()
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Equal(t, "Hi", c.Choices[0].Message.Content)
}

func TestChatStreamToolCallIndexOutOfOrder(t *testing.T) {
	body := `data: {"id":"msg_1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"function":{"arguments":"{"}}]},"finish_reason":null}]}` + "\n\ndata: [DONE]\n\n"
	st, err := recordedData(t, body).Stream(ctx, chatPrompt(chat.UserMessage("x")))
	require.NoError(t, err)
	defer st.Close()
	_, err = st.Completion()
	require.ErrorIs(t, err, messages.ErrEventOrder)

	var acc chat.Accumulator
	require.Nil(t, acc.Completion())
	require.ErrorIs(t, acc.Add(&chat.CompletionChunk{Choices: []chat.ChunkChoice{{Delta: chat.Delta{
		ToolCalls: []chat.ToolCallDelta{{Index: 1 << 30}}}}}}), messages.ErrEventOrder, "no huge allocation either")
}
