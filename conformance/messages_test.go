package conformance_test

import (
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/messages"
)

func messageParams(model, prompt string) messages.MessageParams {
	return messages.MessageParams{
		Model:     model,
		MaxTokens: 64,
		System:    messages.Text("You are terse."),
		Messages:  []messages.MessageParam{messages.UserText(prompt)},
	}
}

// checkMessage asserts the shape every message has.
func checkMessage(t *testing.T, m *messages.Message) {
	t.Helper()
	if !strings.HasPrefix(m.ID, "msg_") || m.Type != "message" || m.Role != "assistant" || m.Model == "" {
		t.Errorf("message id %q, type %q, role %q, model %q", m.ID, m.Type, m.Role, m.Model)
	}
	if len(m.Content) == 0 || m.Text() == "" {
		t.Errorf("message without text: %+v", m.Content)
	}
	if m.StopReason != messages.StopEndTurn && m.StopReason != messages.StopMaxTokens {
		t.Errorf("stop reason %q", m.StopReason)
	}
	if m.Usage.TotalInputTokens() == 0 || m.Usage.OutputTokens == 0 {
		t.Errorf("usage %+v", m.Usage)
	}
}

// TestMessagesCreate runs the model once.
func TestMessagesCreate(t *testing.T) {
	tg := target(t)
	const prompt = "Say hello in three words."
	m, err := tg.Client.Messages.Create(tg.ctx(t), messageParams(tg.Model(t), prompt))
	if err != nil {
		t.Fatalf("create message: %v", err)
	}
	checkMessage(t, m)
	if tg.Reference() && m.Text() != "You said: "+prompt {
		t.Errorf("text %q, want %q", m.Text(), "You said: "+prompt)
	}
}

// TestMessagesStream streams a message: message_start first, message_stop
// last, the text deltas adding up to the accumulated message's text.
func TestMessagesStream(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	params := messageParams(tg.Model(t), "Count from one to five.")
	st, err := tg.Client.Messages.Stream(ctx, params)
	if err != nil {
		t.Fatalf("stream message: %v", err)
	}
	defer st.Close()
	var kinds []string
	var deltas strings.Builder
	for ev, err := range st.Events() {
		if err != nil {
			t.Fatalf("stream after %v: %v", kinds, err)
		}
		switch ev := ev.(type) {
		case messages.MessageStartEvent:
			kinds = append(kinds, "message_start")
		case messages.ContentBlockStartEvent:
			kinds = append(kinds, "content_block_start")
		case messages.ContentBlockDeltaEvent:
			kinds = append(kinds, "content_block_delta")
			if d, ok := ev.Delta.(messages.TextDelta); ok {
				deltas.WriteString(d.Text)
			}
		case messages.ContentBlockStopEvent:
			kinds = append(kinds, "content_block_stop")
		case messages.MessageDeltaEvent:
			kinds = append(kinds, "message_delta")
		case messages.MessageStopEvent:
			kinds = append(kinds, "message_stop")
		default:
			kinds = append(kinds, "other")
		}
	}
	if len(kinds) < 4 || kinds[0] != "message_start" || kinds[len(kinds)-1] != "message_stop" || kinds[len(kinds)-2] != "message_delta" {
		t.Errorf("event order %v", kinds)
	}
	m, err := st.Message()
	if err != nil {
		t.Fatalf("accumulated message: %v", err)
	}
	checkMessage(t, m)
	if deltas.String() != m.Text() {
		t.Errorf("deltas add up to %q, the message says %q", deltas.String(), m.Text())
	}
	if st.Header().Get("request-id") == "" {
		t.Errorf("stream response without request-id")
	}
	if tg.Reference() {
		want, err := tg.Client.Messages.Create(ctx, params)
		if err != nil {
			t.Fatalf("create message: %v", err)
		}
		if m.Text() != want.Text() || m.Usage.OutputTokens != want.Usage.OutputTokens {
			t.Errorf("stream gave %q (%d tokens), create %q (%d tokens)", m.Text(), m.Usage.OutputTokens, want.Text(), want.Usage.OutputTokens)
		}
	}
}

// TestMessagesCountTokens counts a prompt's input tokens; a longer prompt
// counts more. On the reference server the count is exactly the input
// Create reports.
func TestMessagesCountTokens(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	short := messageParams(tg.Model(t), "Hello.")
	long := messageParams(tg.Model(t), "Hello. "+strings.Repeat("This sentence makes the prompt longer. ", 20))
	n1, err := tg.Client.Messages.CountTokens(ctx, short.CountTokensParams())
	if err != nil {
		t.Fatalf("count tokens: %v", err)
	}
	n2, err := tg.Client.Messages.CountTokens(ctx, long.CountTokensParams())
	if err != nil {
		t.Fatalf("count tokens: %v", err)
	}
	if n1.InputTokens <= 0 || n2.InputTokens <= n1.InputTokens {
		t.Errorf("counts %d (short) and %d (long)", n1.InputTokens, n2.InputTokens)
	}
	if tg.Reference() {
		m, err := tg.Client.Messages.Create(ctx, short)
		if err != nil {
			t.Fatalf("create message: %v", err)
		}
		if m.Usage.TotalInputTokens() != n1.InputTokens {
			t.Errorf("count %d, create reports %d input tokens", n1.InputTokens, m.Usage.TotalInputTokens())
		}
	}
}
