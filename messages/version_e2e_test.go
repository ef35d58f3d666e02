package messages_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// TestVersionE2E runs requests under 2026-10-21 and with system messages
// against the reference server: accepted, and answered.
func TestVersionE2E(t *testing.T) {
	env, _, _ := batchEnv(t)
	client := env.Client(t, option.WithVersion(option.Version20261021))

	p := prompt("Hello there")
	p.Messages = append(p.Messages, messages.SystemText("Answer in one word."))
	msg, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.NotEmpty(t, msg.Content)
	require.Equal(t, option.Version20261021, env.Server.Requests()[0].Header.Get("vendor-version"))
	msg, err = env.Client(t).Messages.Create(ctx, p) // and under 2023-06-01
	require.NoError(t, err)
	require.NotEmpty(t, msg.Content)

	n, err := client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: p.Model, Messages: p.Messages})
	require.NoError(t, err)
	without, err := client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: p.Model, Messages: p.Messages[:1]})
	require.NoError(t, err)
	require.Greater(t, n.InputTokens, without.InputTokens, "the system message is counted")

	b, err := client.Messages.Batches.Create(ctx, batchOf("Hi", "There"))
	require.NoError(t, err)
	require.Equal(t, 2, b.RequestCounts.Processing)
}

// TestVersionRulesMatchServer: the server refuses each body the SDK
// refuses under 2026-10-21 (or in both versions, for system messages)
// with the same field and rule, sent raw so that the SDK's own checks do
// not stand in the way.
func TestVersionRulesMatchServer(t *testing.T) {
	env := reftest.New(t)
	cases := append([]versionCase(nil), versionCases...)
	cases = append(cases,
		versionCase{"role unknown", func(p *messages.MessageParams) { p.Messages[0].Role = "tool" },
			"messages.0.role", "Input should be 'user', 'assistant' or 'system'", ""},
		versionCase{"system message first", func(p *messages.MessageParams) {
			p.Messages = append([]messages.MessageParam{messages.SystemText("Be brief.")}, p.Messages...)
		}, "messages.0", "a `system` message must come immediately after a `user` message; put the instructions", ""},
		versionCase{"system message with an image", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.MessageParam{Role: messages.RoleSystem, Content: messages.Blocks{
				messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"}}}})
		}, "messages.1.content.0", "Input tag 'image' found using 'type' does not match any of the expected tags: 'text'", ""},
		versionCase{"system message with citations", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.SystemTextBlocks(cited("Be brief.")))
		}, "messages.1.content.0.citations", "citations are not allowed in `system` messages", ""},
	)
	for _, bc := range cases {
		t.Run(bc.name, func(t *testing.T) {
			p := prompt("Hello there")
			p.Messages = append([]messages.MessageParam(nil), p.Messages...)
			bc.edit(&p)
			apiErr := sendRaw(t, env, p, option.Version20261021, "")
			require.True(t, strings.HasPrefix(apiErr.Message, bc.field+": "), apiErr.Message)
			rule := bc.rule
			if bc.remote != "" {
				rule = bc.remote
			}
			require.Contains(t, apiErr.Message, rule)
		})
	}
}
