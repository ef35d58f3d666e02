package messages_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
)

// diagTurn is the opening turn of a conversation that opted in to
// diagnostics: a system prompt and one tool.
func diagTurn() messages.MessageParams {
	p := prompt("What is the weather in Paris today?")
	p.System = messages.Text("You are a weather assistant.")
	p.Tools = []messages.Tool{messages.CustomTool{Name: "get_weather", Description: "Weather for a city",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	p.Diagnostics = &messages.DiagnosticsParams{}
	return p
}

// nextTurn appends the answer and a new user message to p, naming the
// answer as the previous message.
func nextTurn(p messages.MessageParams, answer *messages.Message, text string) messages.MessageParams {
	p.Messages = append(append([]messages.MessageParam(nil), p.Messages...), answer.Param(), messages.UserText(text))
	p.Diagnostics = &messages.DiagnosticsParams{PreviousMessageID: &answer.ID}
	return p
}

func create(t *testing.T, c *agentplatform.Client, p messages.MessageParams) *messages.Message {
	t.Helper()
	m, err := c.Messages.Create(ctx, p)
	require.NoError(t, err)
	return m
}

// TestDiagnosticsOptInAndAppend: the first turn sends a null id to opt in
// and gets no diagnosis; a turn that only appends messages is no miss.
func TestDiagnosticsOptInAndAppend(t *testing.T) {
	env, client := newEnv(t)
	first := create(t, client, diagTurn())
	require.Nil(t, first.Diagnostics)
	require.Equal(t, map[string]any{"previous_message_id": nil}, lastBody(t, env)["diagnostics"])

	second := create(t, client, nextTurn(diagTurn(), first, "And tomorrow?"))
	require.Nil(t, second.Diagnostics, "appending messages is not a miss")
	require.Equal(t, map[string]any{"previous_message_id": first.ID}, lastBody(t, env)["diagnostics"])

	// The second turn was remembered too: a third that appends again is
	// compared with it.
	p := nextTurn(nextTurn(diagTurn(), first, "And tomorrow?"), second, "Thanks")
	require.Nil(t, create(t, client, p).Diagnostics)
}

// TestDiagnosticsMisses: each kind of change is named, first in the order
// model (and speed), system, tools, messages, with the tokens of the
// previous prompt the cache could not reuse.
func TestDiagnosticsMisses(t *testing.T) {
	_, client := newEnv(t)
	first := create(t, client, diagTurn())
	total := first.Usage.TotalInputTokens()
	for _, tc := range []struct {
		name   string
		edit   func(p *messages.MessageParams)
		typ    string
		missed func(int) bool
	}{
		{"model", func(p *messages.MessageParams) { p.Model = models.VendorHaiku55 }, messages.CacheMissModelChanged,
			func(n int) bool { return n == total }},
		{"speed", func(p *messages.MessageParams) { p.Speed = messages.SpeedFast }, messages.CacheMissModelChanged,
			func(n int) bool { return n == total }},
		{"system", func(p *messages.MessageParams) { p.System = messages.Text("You are terse.") }, messages.CacheMissSystemChanged,
			func(n int) bool { return n > 0 && n < total }},
		{"tools", func(p *messages.MessageParams) { p.Tools = nil }, messages.CacheMissToolsChanged,
			func(n int) bool { return n == total }},
		{"system before tools", func(p *messages.MessageParams) {
			p.Tools, p.System = nil, messages.Text("You are terse.")
		}, messages.CacheMissSystemChanged, func(n int) bool { return n == total }},
		{"earlier message", func(p *messages.MessageParams) {
			p.Messages[0] = messages.UserText("What is the weather in Rome today?")
		}, messages.CacheMissMessagesChanged, func(n int) bool { return n > 0 && n < total }},
		{"messages dropped", func(p *messages.MessageParams) {
			p.Messages = []messages.MessageParam{messages.UserText("Hi")}
		}, messages.CacheMissMessagesChanged, func(n int) bool { return n > 0 && n < total }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := nextTurn(diagTurn(), first, "And tomorrow?")
			tc.edit(&p)
			m := create(t, client, p)
			require.NotNil(t, m.Diagnostics)
			require.NotNil(t, m.Diagnostics.CacheMissReason)
			require.Equal(t, tc.typ, m.Diagnostics.CacheMissReason.Type)
			n := m.Diagnostics.CacheMissReason.CacheMissedInputTokens
			require.True(t, tc.missed(n), "cache_missed_input_tokens %d of %d", n, total)
		})
	}
}

// TestDiagnosticsNotFound: an id the store does not hold, and one of a
// request that did not opt in, are not found.
func TestDiagnosticsNotFound(t *testing.T) {
	_, client := newEnv(t)
	unknown := "msg_01AAAAAAAAAAAAAAAAAAAAAA"
	p := diagTurn()
	p.Diagnostics.PreviousMessageID = &unknown
	m := create(t, client, p)
	require.Equal(t, &messages.CacheMissReason{Type: messages.CacheMissPreviousMessageNotFound}, m.Diagnostics.CacheMissReason)

	plain := diagTurn()
	plain.Diagnostics = nil
	notOptedIn := create(t, client, plain)
	require.Nil(t, notOptedIn.Diagnostics)
	m = create(t, client, nextTurn(diagTurn(), notOptedIn, "And tomorrow?"))
	require.Equal(t, messages.CacheMissPreviousMessageNotFound, m.Diagnostics.CacheMissReason.Type)
}

// TestDiagnosticsInStream: message_start carries the diagnosis.
func TestDiagnosticsInStream(t *testing.T) {
	_, client := newEnv(t)
	first := create(t, client, diagTurn())
	p := nextTurn(diagTurn(), first, "And tomorrow?")
	p.System = messages.Text("You are terse.")
	st, err := client.Messages.Stream(ctx, p)
	require.NoError(t, err)
	defer st.Close()
	var start *messages.MessageStartEvent
	for ev, err := range st.Events() {
		require.NoError(t, err)
		if s, ok := ev.(messages.MessageStartEvent); ok {
			start = &s
		}
	}
	require.NotNil(t, start)
	require.Equal(t, messages.CacheMissSystemChanged, start.Message.Diagnostics.CacheMissReason.Type)
	m, err := st.Message()
	require.NoError(t, err)
	require.Equal(t, start.Message.Diagnostics, m.Diagnostics)

	// The streamed turn was remembered under its id.
	next := create(t, client, nextTurn(p, m, "Thanks"))
	require.Nil(t, next.Diagnostics)
}

// TestDiagnosticsStoreBounded: a workspace keeps the last 1000 opted-in
// requests; the oldest is forgotten first.
func TestDiagnosticsStoreBounded(t *testing.T) {
	_, client := newEnv(t)
	p := prompt("Hi")
	p.MaxTokens = 1
	p.Diagnostics = &messages.DiagnosticsParams{}
	oldest := create(t, client, p)
	second := create(t, client, p)
	third := create(t, client, p)
	for range 998 {
		create(t, client, p)
	}
	check := func(prev *messages.Message) *messages.Diagnostics {
		q := p
		q.Diagnostics = &messages.DiagnosticsParams{PreviousMessageID: &prev.ID}
		return create(t, client, q).Diagnostics
	}
	require.Equal(t, messages.CacheMissPreviousMessageNotFound, check(oldest).CacheMissReason.Type)
	// That check was remembered too, which pushed the second one out; the
	// third is still kept (and the prompt is the same: no miss).
	require.Nil(t, check(third))
	require.Equal(t, messages.CacheMissPreviousMessageNotFound, check(second).CacheMissReason.Type)
}
