package messages_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// cited is a text block with one citation, as the model's answers carry them.
func cited(text string) messages.TextBlock {
	return messages.TextBlock{Text: text, Citations: []messages.Citation{messages.CharLocation{
		CitedText: "Quarterly revenue rose 12%.", StartCharIndex: 0, EndCharIndex: 27}}}
}

const extraInput = "Extra inputs are not permitted"

var plainDoc = messages.DocumentBlock{Source: messages.PlainTextSource{Data: "Quarterly revenue rose 12%."}}

// versionCase breaks one rule of API version 2026-10-21 that 2023-06-01
// does not have.
type versionCase struct {
	name        string
	edit        func(*messages.MessageParams)
	field, rule string
	remote      string // the server's rule, when it words it differently
}

var versionCases = []versionCase{
	{"temperature", func(p *messages.MessageParams) { p.Temperature = new(1.0) }, "temperature", "not accepted in API version 2026-10-21", extraInput},
	{"temperature zero", func(p *messages.MessageParams) { p.Temperature = new(0.0) }, "temperature", extraInput, ""},
	{"top_p", func(p *messages.MessageParams) { p.TopP = new(0.9) }, "top_p", "not accepted in API version 2026-10-21", extraInput},
	{"top_k", func(p *messages.MessageParams) { p.TopK = new(5) }, "top_k", "not accepted in API version 2026-10-21", extraInput},
	{"document in an assistant message", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.TextBlock{Text: "See:"}, plainDoc),
			messages.UserText("Thanks"))
	}, "messages.1.content.1", "`document` blocks are not allowed in `assistant` messages", ""},
	{"citations on user text", func(p *messages.MessageParams) {
		p.Messages[0] = messages.UserBlocks(messages.TextBlock{Text: "Hello"}, cited("You said"))
	}, "messages.0.content.1.citations", "citations are not allowed on text in `user` messages since vendor-version 2026-10-21", ""},
	{"citations inside a user search result", func(p *messages.MessageParams) {
		p.Messages[0] = messages.UserBlocks(messages.TextBlock{Text: "Hello"}, messages.SearchResultBlock{
			Source: "https://example.com", Title: "Memo", Content: []messages.TextBlock{{Text: "plain"}, cited("cited")}})
	}, "messages.0.content.1.search_result.content.1.citations", "not allowed on text in `user` messages since vendor-version 2026-10-21", ""},
}

// TestVersionRulesRefusedLocally: under 2026-10-21, chosen for the client
// or for the call, each rule of the version is refused before anything is
// sent, by Create, Stream, CountTokens (for the rules it has) and batch
// Create (naming the request); under 2023-06-01 the same request is sent.
func TestVersionRulesRefusedLocally(t *testing.T) {
	env := reftest.New(t)
	old := env.Client(t)
	current := env.Client(t, option.WithVersion(option.Version20261021))
	perCall := []option.Option{option.WithVersion(option.Version20261021)}
	for _, tc := range versionCases {
		t.Run(tc.name, func(t *testing.T) {
			p := prompt("Hello there")
			p.Messages = append([]messages.MessageParam(nil), p.Messages...)
			tc.edit(&p)
			refused := func(err error, field string) {
				t.Helper()
				var v *apierror.ValidationError
				require.ErrorAs(t, err, &v)
				require.Equal(t, field, v.Field, v.Error())
				require.Contains(t, v.Rule, tc.rule)
				require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			}
			env.Server.ResetRequests()
			for _, c := range []struct {
				client *agentplatform.Client
				opts   []option.Option
			}{{current, nil}, {old, perCall}} {
				_, err := c.client.Messages.Create(ctx, p, c.opts...)
				refused(err, tc.field)
				_, err = c.client.Messages.Stream(ctx, p, c.opts...)
				refused(err, tc.field)
				if p.Temperature == nil && p.TopP == nil && p.TopK == nil {
					_, err = c.client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: p.Model, Messages: p.Messages}, c.opts...)
					refused(err, tc.field)
				}
				batch := batchOf("Hi")
				batch.Requests = append(batch.Requests, messages.BatchRequest{CustomID: "r1", Params: p})
				_, err = c.client.Messages.Batches.Create(ctx, batch, c.opts...)
				refused(err, "requests.1.params."+tc.field)
			}
			require.Empty(t, env.Server.Requests(), "nothing was sent")

			// 2023-06-01, the client's default or chosen for the call on a
			// 2026-10-21 client: checked by its own rules, and sent.
			_, err := old.Messages.Create(ctx, p)
			require.NoError(t, err, "refused locally under 2023-06-01: %v")
			_, err = current.Messages.Create(ctx, p, option.WithVersion(option.Version20230601))
			require.NoError(t, err, "refused locally under 2023-06-01: %v")
			reqs := env.Server.Requests()
			require.Len(t, reqs, 2)
			require.Equal(t, option.Version20230601, reqs[0].Header.Get("vendor-version"))
			require.Equal(t, option.Version20230601, reqs[1].Header.Get("vendor-version"))
		})
	}
}

// TestVersionRulesKeepWhatIsAllowed: what 2026-10-21 still accepts is not
// refused locally: an empty citations list on user text, citations on
// assistant text, the citations setting of a document, a document nested
// in a user message, and the thinking rules of 2023-06-01 still apply
// there.
func TestVersionRulesKeepWhatIsAllowed(t *testing.T) {
	env := reftest.New(t)
	current := env.Client(t, option.WithVersion(option.Version20261021))
	p := prompt("Hello there")
	p.Messages = []messages.MessageParam{
		messages.UserBlocks(messages.TextBlock{Text: "Read this", Citations: []messages.Citation{}},
			messages.DocumentBlock{Source: messages.PlainTextSource{Data: "Quarterly revenue rose 12%."},
				Citations: &messages.CitationsConfig{Enabled: true}}),
		messages.AssistantBlocks(cited("Revenue rose.")),
		messages.UserText("And costs?"),
	}
	_, err := current.Messages.Create(ctx, p)
	require.NoError(t, err, "refused locally: %v")
	require.Len(t, env.Server.Requests(), 1)
	require.Equal(t, option.Version20261021, env.Server.Requests()[0].Header.Get("vendor-version"))

	// Under 2023-06-01 the thinking limits on temperature still hold.
	old := env.Client(t)
	q := prompt("Hello there")
	q.MaxTokens, q.Thinking, q.Temperature = 4096, messages.ThinkingEnabled{BudgetTokens: 2048}, new(0.5)
	_, err = old.Messages.Create(ctx, q)
	var v *apierror.ValidationError
	require.ErrorAs(t, err, &v)
	require.Equal(t, "`temperature` may only be set to 1 when thinking is enabled", v.Rule)
}

// TestVersionOptionRefusesMalformed: WithVersion refuses a value that is
// not a date, for a client and for a call, before anything is sent.
func TestVersionOptionRefusesMalformed(t *testing.T) {
	env, client := newEnv(t)
	for _, bad := range []string{"latest", "2026-10-21 ", "2026-1-1", "v2"} {
		_, err := client.Messages.Create(ctx, prompt("Hi"), option.WithVersion(bad))
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v, bad)
		require.Equal(t, "vendor-version", v.Field)
		require.Contains(t, v.Rule, "YYYY-MM-DD")
		_, err = agentplatform.NewClient(option.WithVersion(bad), option.WithAPIKey("k"))
		require.ErrorAs(t, err, &v, bad)
	}
	require.Empty(t, env.Server.Requests())
}

// TestSystemMessages: a system message is checked in both versions: text
// only, non-empty, no citations, immediately after a user message; the
// tool-pairing rule looks through it. Nothing is sent for a refusal.
func TestSystemMessages(t *testing.T) {
	env := reftest.New(t)
	toolUse := messages.ToolUseBlock{ID: "toolu_1", Name: "get_weather", Input: []byte(`{"city":"Paris"}`)}
	result := messages.ToolResultBlock{ToolUseID: "toolu_1", Content: messages.Text("sunny")}
	for _, version := range []string{option.Version20230601, option.Version20261021} {
		client := env.Client(t, option.WithVersion(version))
		for _, tc := range []struct {
			name        string
			msgs        []messages.MessageParam
			field, rule string
		}{
			{"first", []messages.MessageParam{messages.SystemText("Be brief."), messages.UserText("Hi")},
				"messages.0", "a `system` message must come immediately after a `user` message"},
			{"after an assistant message", []messages.MessageParam{messages.UserText("Hi"), messages.AssistantText("Hello"),
				messages.SystemText("Be brief.")}, "messages.2", "immediately after a `user` message"},
			{"after a system message", []messages.MessageParam{messages.UserText("Hi"), messages.SystemText("Be brief."),
				messages.SystemText("Be kind.")}, "messages.2", "immediately after a `user` message"},
			{"empty text", []messages.MessageParam{messages.UserText("Hi"), messages.SystemText("")},
				"messages.1", "all messages must have non-empty content"},
			{"no content", []messages.MessageParam{messages.UserText("Hi"), {Role: messages.RoleSystem}},
				"messages.1.content", "Field required"},
			{"empty block", []messages.MessageParam{messages.UserText("Hi"), messages.SystemTextBlocks(messages.TextBlock{Text: "a"}, messages.TextBlock{})},
				"messages", "text content blocks must be non-empty"},
			{"an image block", []messages.MessageParam{messages.UserText("Hi"), {Role: messages.RoleSystem, Content: messages.Blocks{
				messages.TextBlock{Text: "Look:"}, messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"}}}}},
				"messages.1.content.1", "Input tag 'image' found using 'type' does not match any of the expected tags: 'text'"},
			{"citations", []messages.MessageParam{messages.UserText("Hi"), messages.SystemTextBlocks(cited("Be brief."))},
				"messages.1.content.0.citations", "citations are not allowed in `system` messages"},
			{"tool_use unanswered across it", []messages.MessageParam{messages.UserText("Weather?"), messages.AssistantBlocks(toolUse),
				messages.UserText("Well?"), messages.SystemText("Answer tools first."), messages.UserText("Hm")},
				"messages.1", "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1"},
		} {
			t.Run(version+"/"+tc.name, func(t *testing.T) {
				env.Server.ResetRequests()
				p := prompt("Hi")
				p.Messages = tc.msgs
				_, err := client.Messages.Create(ctx, p)
				var v *apierror.ValidationError
				require.ErrorAs(t, err, &v)
				require.Equal(t, tc.field, v.Field, v.Error())
				require.Contains(t, v.Rule, tc.rule)
				_, err = client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: p.Model, Messages: p.Messages})
				require.ErrorAs(t, err, &v)
				require.Equal(t, tc.field, v.Field, v.Error())
				require.Empty(t, env.Server.Requests(), "nothing was sent")
			})
		}
		t.Run(version+"/accepted", func(t *testing.T) {
			for _, msgs := range [][]messages.MessageParam{
				{messages.UserText("Hi"), messages.SystemText("Be brief.")},
				{messages.UserText("Hi"), messages.SystemTextBlocks(messages.TextBlock{Text: "Be brief.", CacheControl: &messages.CacheControl{}}),
					messages.AssistantText("Hello"), messages.UserText("Again")},
				// The tool-pairing rule looks through system messages:
				// the user turn runs on through one.
				{messages.UserText("Weather?"), messages.AssistantBlocks(toolUse), messages.UserText("Here:"),
					messages.SystemText("Answer briefly."), messages.UserBlocks(result)},
			} {
				env.Server.ResetRequests()
				p := prompt("Hi")
				p.Messages = msgs
				_, err := client.Messages.Create(ctx, p)
				require.NoError(t, err, "refused locally: %v")
				require.Len(t, env.Server.Requests(), 1)
			}
		})
	}
}

// TestSystemMessageRoundTrip: a stored conversation with system messages,
// of text and of blocks, reads back as it was written.
func TestSystemMessageRoundTrip(t *testing.T) {
	conv := []messages.MessageParam{
		messages.UserText("Hi"),
		messages.SystemText("Be brief."),
		messages.AssistantText("Hello"),
		messages.UserText("Again"),
		messages.SystemTextBlocks(messages.TextBlock{Text: "Be kind.", CacheControl: &messages.CacheControl{TTL: messages.CacheTTL1h}}),
	}
	data, err := json.Marshal(conv)
	require.NoError(t, err)
	require.Contains(t, string(data), `{"role":"system","content":"Be brief."}`)
	var back []messages.MessageParam
	require.NoError(t, json.Unmarshal(data, &back))
	if diff := cmp.Diff(conv, back, sameMessage); diff != "" {
		t.Fatalf("(-stored +read):\n%s", diff)
	}
	require.Equal(t, messages.RoleSystem, back[4].Role)
}

// TestSystemMessageSpan: the API span's gen_ai.input.messages show a
// system message with role system, in its place.
func TestSystemMessageSpan(t *testing.T) {
	_, client, rec := tracedEnv(t, option.WithContentCapture(true))
	p := prompt("Hello there")
	p.Messages = append(p.Messages, messages.SystemText("Answer in one word."))
	_, _ = client.Messages.Create(ctx, p) // the span, not the answer, is checked
	a := spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.Equal(t, []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"type": "text", "content": "Hello there"}}},
		map[string]any{"role": "system", "parts": []any{map[string]any{"type": "text", "content": "Answer in one word."}}},
	}, jsonAttr(t, a[attr.GenAIInputMessages]))
}

// TestVersionRefusalHasNoSpan: a request refused by its version's rules
// is refused before the call's span starts.
func TestVersionRefusalHasNoSpan(t *testing.T) {
	env, client, rec := tracedEnv(t, option.WithVersion(option.Version20261021))
	p := prompt("Hello there")
	p.TopK = new(5)
	_, err := client.Messages.Create(ctx, p)
	var v *apierror.ValidationError
	require.ErrorAs(t, err, &v)
	_, err = client.Messages.Batches.Create(ctx, messages.BatchCreateParams{Requests: []messages.BatchRequest{{CustomID: "r0", Params: p}}})
	require.ErrorAs(t, err, &v)
	require.Equal(t, "requests.0.params.top_k", v.Field)
	require.Empty(t, rec.Started(), "no span")
	require.Empty(t, env.Server.Requests(), "nothing was sent")
}
