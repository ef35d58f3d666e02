package conformance_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apiversion"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// The tests in this file check what differs between API versions
// (docs/api-versions.md). Each runs in every pass and expects the rules of
// the pass's version, apiVersion.

// TestVersionSent checks that every request carries the pass's version.
func TestVersionSent(t *testing.T) {
	tg := target(t)
	var mu sync.Mutex
	var sent []string
	watch := option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		mu.Lock()
		sent = append(sent, req.Header.Get("vendor-version"))
		mu.Unlock()
		return next(req)
	})
	if _, err := tg.Client.Models.List(tg.ctx(t), models.ListParams{Limit: 1}, watch); err != nil {
		t.Fatalf("list models: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 1 || sent[0] != apiVersion {
		t.Errorf("vendor-version sent %q, want [%s]", sent, apiVersion)
	}
}

// TestVersionUnknown sends a version the platform does not serve: a 400
// that names the header.
func TestVersionUnknown(t *testing.T) {
	tg := target(t)
	_, err := tg.Client.Models.List(tg.ctx(t), models.ListParams{Limit: 1}, option.WithVersion("1999-01-01"))
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		t.Fatalf("unknown version: got %v, want a 400", err)
	}
	if tg.Reference() && !strings.Contains(apiErr.Message, "vendor-version") {
		t.Errorf("message %q does not name vendor-version", apiErr.Message)
	}
}

// refusedLocally asserts a local refusal naming field, with nothing sent.
func refusedLocally(t *testing.T, err error, field string, sent int) {
	t.Helper()
	var ve *apierror.ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("got %v, want a local refusal of %s", err, field)
	}
	if sent != 0 {
		t.Errorf("%d requests sent for a request refused locally", sent)
	}
}

// refusedByServer sends body as it is, past the SDK's checks, and asserts
// a 400; on the reference server, one whose message contains want.
func refusedByServer(t *testing.T, tg *Target, body map[string]any, want string) {
	t.Helper()
	err := tg.Client.Execute(tg.ctx(t), http.MethodPost, "/v1/messages", body, nil)
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		t.Fatalf("got %v, want a 400", err)
	}
	if tg.Reference() && !strings.Contains(apiErr.Message, want) {
		t.Errorf("message %q, want it to contain %q", apiErr.Message, want)
	}
}

// rawMessage returns a Messages request body with msgs, for sending as it is.
func rawMessage(model string, msgs ...map[string]any) map[string]any {
	return map[string]any{"model": model, "max_tokens": 32, "messages": msgs}
}

// TestMessagesSamplingParams: temperature is accepted until 2026-10-21 and
// refused from then on, by the SDK before sending and by the server.
func TestMessagesSamplingParams(t *testing.T) {
	tg := target(t)
	params := messageParams(tg.Model(t), "Say hello.")
	params.Temperature = new(0.5)
	var n counter
	m, err := tg.Client.Messages.Create(tg.ctx(t), params, n.option())
	if apiversion.SamplingParams(apiVersion) {
		if err != nil {
			t.Fatalf("create with temperature under %s: %v", apiVersion, err)
		}
		checkMessage(t, m)
		return
	}
	refusedLocally(t, err, "temperature", n.count())
	refusedByServer(t, tg, map[string]any{
		"model": tg.Model(t), "max_tokens": 32, "temperature": 1,
		"messages": []map[string]any{{"role": "user", "content": "Say hello."}},
	}, "temperature: Extra inputs are not permitted")
}

// TestMessagesSystemRole adds instructions mid-conversation with a system
// message, in every version; one that does not follow a user message is
// refused.
func TestMessagesSystemRole(t *testing.T) {
	tg := target(t)
	params := messageParams(tg.Model(t), "Say hello.")
	params.Messages = append(params.Messages, messages.SystemText("Answer in one word."))
	m, err := tg.Client.Messages.Create(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("create with a system message: %v", err)
	}
	checkMessage(t, m)

	params.Messages = []messages.MessageParam{messages.SystemText("Answer in one word."), messages.UserText("Say hello.")}
	var n counter
	_, err = tg.Client.Messages.Create(tg.ctx(t), params, n.option())
	refusedLocally(t, err, "messages.0", n.count())
	refusedByServer(t, tg, rawMessage(tg.Model(t),
		map[string]any{"role": "system", "content": "Answer in one word."},
		map[string]any{"role": "user", "content": "Say hello."},
	), "messages.0")
}

// TestMessagesAssistantDocument: a document directly in an assistant
// message is accepted until 2026-10-21.
func TestMessagesAssistantDocument(t *testing.T) {
	tg := target(t)
	doc := messages.DocumentBlock{Source: messages.PlainTextSource{Data: "The sky is blue."}, Title: "Notes"}
	params := messageParams(tg.Model(t), "Here are my notes.")
	params.Messages = append(params.Messages,
		messages.AssistantBlocks(doc),
		messages.UserText("What colour is the sky?"))
	var n counter
	m, err := tg.Client.Messages.Create(tg.ctx(t), params, n.option())
	if apiversion.AssistantDocuments(apiVersion) {
		if err != nil {
			t.Fatalf("create with an assistant document under %s: %v", apiVersion, err)
		}
		checkMessage(t, m)
		return
	}
	refusedLocally(t, err, "messages.1.content.0", n.count())
	refusedByServer(t, tg, rawMessage(tg.Model(t),
		map[string]any{"role": "user", "content": "Here are my notes."},
		map[string]any{"role": "assistant", "content": []map[string]any{{
			"type": "document", "title": "Notes",
			"source": map[string]any{"type": "text", "media_type": "text/plain", "data": "The sky is blue."},
		}}},
		map[string]any{"role": "user", "content": "What colour is the sky?"},
	), "messages.1.content.0")
}

// TestMessagesUserCitations: citations on a user's text block are accepted
// until 2026-10-21.
func TestMessagesUserCitations(t *testing.T) {
	tg := target(t)
	cited := messages.TextBlock{Text: "The sky is blue.", Citations: []messages.Citation{messages.CharLocation{
		CitedText: "The sky is blue.", DocumentIndex: 0, StartCharIndex: 0, EndCharIndex: 16,
	}}}
	params := messageParams(tg.Model(t), "")
	params.Messages = []messages.MessageParam{messages.UserBlocks(
		messages.DocumentBlock{Source: messages.PlainTextSource{Data: "The sky is blue."}, Citations: &messages.CitationsConfig{Enabled: true}},
		cited,
		messages.TextBlock{Text: "Is that right?"},
	)}
	var n counter
	m, err := tg.Client.Messages.Create(tg.ctx(t), params, n.option())
	if apiversion.UserCitations(apiVersion) {
		if err != nil {
			t.Fatalf("create with cited user text under %s: %v", apiVersion, err)
		}
		checkMessage(t, m)
		return
	}
	refusedLocally(t, err, "messages.0.content.1.citations", n.count())
	refusedByServer(t, tg, rawMessage(tg.Model(t),
		map[string]any{"role": "user", "content": []map[string]any{
			{"type": "document", "source": map[string]any{"type": "text", "media_type": "text/plain", "data": "The sky is blue."}, "citations": map[string]any{"enabled": true}},
			{"type": "text", "text": "The sky is blue.", "citations": []map[string]any{{
				"type": "char_location", "cited_text": "The sky is blue.", "document_index": 0, "document_title": nil,
				"start_char_index": 0, "end_char_index": 16,
			}}},
			{"type": "text", "text": "Is that right?"},
		}},
	), "messages.0.content.1.citations")
}

// TestAdminAPIKeyFields: an API key carries scope in every version, and
// its deprecated workspace_id only until 2026-10-21.
func TestAdminAPIKeyFields(t *testing.T) {
	tg := target(t)
	var page struct {
		Data []map[string]any `json:"data"`
	}
	err := tg.Client.Execute(tg.ctx(t), http.MethodGet, "/v1/organizations/api_keys", nil, &page, option.WithQuery("limit", "20"))
	skipIfForbidden(t, tg, err, "list API keys")
	if err != nil {
		t.Fatalf("list API keys: %v", err)
	}
	if len(page.Data) == 0 {
		t.Fatal("no API key listed, not even the one in use")
	}
	for _, key := range page.Data {
		if _, ok := key["scope"]; !ok {
			t.Errorf("key %v has no scope", key["id"])
		}
		_, has := key["workspace_id"]
		if want := apiversion.DeprecatedFields(apiVersion); has != want {
			t.Errorf("key %v: workspace_id present %v under %s, want %v", key["id"], has, apiVersion, want)
		}
	}
}
