package refserver_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The two API versions (docs/api-versions.md): the vendor-version header,
// the Messages rules of 2026-10-21, system-role messages (both versions)
// and the API key object.

const (
	v2023 = "2023-06-01"
	v2026 = "2026-10-21"
)

func version(v string) mod { return withHeader("vendor-version", v) }

func TestVersionHeaderValues(t *testing.T) {
	e := newEnv(t)
	const served = "the served versions are `2023-06-01` and `2026-10-21`"
	for _, v := range []string{v2023, v2026} {
		wantOK(t, e.do(t, "GET", "/v1/models", "", version(v)))
		wantOK(t, e.do(t, "GET", "/v1/models", "", withHeader("vendor-version", v, v)))
	}
	for _, v := range []string{"2026-10-22", "2027-01-01", "latest", ""} {
		wantInvalid(t, e.do(t, "GET", "/v1/models", "", version(v)), "vendor-version: unsupported version `"+v+"`; "+served)
	}
	wantInvalid(t, e.do(t, "GET", "/v1/models", "", withHeader("vendor-version", v2023, v2026)),
		"vendor-version: sent more than once with different values (`2023-06-01`, `2026-10-21`); send one version")
	wantInvalid(t, e.do(t, "GET", "/v1/models", "", withHeader("vendor-version", v2026, "2099-01-01")),
		"vendor-version: unsupported version `2099-01-01`; "+served)

	// Omitted means 2023-06-01: its rules apply.
	e.message(t, msgReq(sonnet, "Hi", `"temperature":0.5`), withHeader("vendor-version"))
	require.Contains(t, wantOK(t, e.do(t, "GET", apiKeysPath+"/apikey_010000000000000000000001", "", withHeader("vendor-version"))), "workspace_id")
}

// versionCase is one request accepted under 2023-06-01 and refused under
// 2026-10-21 with message.
type versionCase struct {
	name, body, message string
}

func checkVersionCases(t *testing.T, e *env, path string, cases []versionCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantOK(t, e.do(t, "POST", path, c.body, version(v2023)))
			wantOK(t, e.do(t, "POST", path, c.body)) // the default
			wantInvalid(t, e.do(t, "POST", path, c.body, version(v2026)), c.message)
		})
	}
}

const (
	docBlock      = `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"The sky is blue."}}`
	citation      = `{"type":"char_location","cited_text":"blue","document_index":0,"start_char_index":11,"end_char_index":15}`
	citedText     = `{"type":"text","text":"The sky is blue.","citations":[` + citation + `]}`
	searchResult  = `{"type":"search_result","source":"https://s.example","title":"Sky","content":[{"type":"text","text":"plain"},` + citedText + `]}`
	userDocThenQ  = `{"role":"user","content":"Read this."},`
	countTokensP  = "/v1/messages/count_tokens"
	countWithMsgs = `{"model":"vendor-sonnet-5-5","messages":[`
)

func TestMessagesVersionRules(t *testing.T) {
	e := newEnv(t)
	assistantDoc := userDocThenQ + `{"role":"assistant","content":[{"type":"text","text":"Here:"},` + docBlock + `]},{"role":"user","content":"Thanks"}`
	userCited := `{"role":"user","content":[{"type":"text","text":"Hi"},` + citedText + `]}`
	userSearch := `{"role":"user","content":[{"type":"text","text":"Hi"},` + searchResult + `]}`
	docMsg := "messages.1.content.1: `document` blocks are not allowed in `assistant` messages"
	citeMsg := func(path string) string {
		return path + ": citations are not allowed on text in `user` messages since vendor-version 2026-10-21; send citations back only on `assistant` text"
	}
	checkVersionCases(t, e, "/v1/messages", []versionCase{
		{"temperature", base(`"temperature":0.5`), "temperature: Extra inputs are not permitted"},
		{"temperature default", base(`"temperature":1`), "temperature: Extra inputs are not permitted"},
		{"top_p", base(`"top_p":0.9`), "top_p: Extra inputs are not permitted"},
		{"top_k", base(`"top_k":5`), "top_k: Extra inputs are not permitted"},
		{"sampling first in body order", `{"top_k":5,"model":"vendor-sonnet-5-5","max_tokens":1024,"temperature":0.5,` + hiMsg + `}`,
			"top_k: Extra inputs are not permitted"},
		{"document in assistant", withMessages(assistantDoc), docMsg},
		{"user text citations", withMessages(userCited), citeMsg("messages.0.content.1.citations")},
		{"search result citations", withMessages(userSearch), citeMsg("messages.0.content.1.search_result.content.1.citations")},
	})
	checkVersionCases(t, e, countTokensP, []versionCase{
		{"document in assistant", countWithMsgs + assistantDoc + `]}`, docMsg},
		{"user text citations", countWithMsgs + userCited + `]}`, citeMsg("messages.0.content.1.citations")},
	})

	// Under 2026-10-21 a null still counts as sent, and a stream is refused
	// before it starts.
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(`"temperature":null`), version(v2026)), "temperature: Extra inputs are not permitted")
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(`"stream":true,"top_p":1`), version(v2026)), "top_p: Extra inputs are not permitted")
	// count_tokens never took the sampling parameters.
	for _, v := range []string{v2023, v2026} {
		wantInvalid(t, e.do(t, "POST", countTokensP, countWithMsgs+`{"role":"user","content":"Hi"}],"temperature":1}`, version(v)),
			"temperature: Extra inputs are not permitted")
	}

	// Still accepted under 2026-10-21: an empty citations list, citations
	// on assistant text, documents in user messages, a document nested in
	// an assistant's web fetch result, the citations setting of documents.
	for name, msgs := range map[string]string{
		"empty citations": `{"role":"user","content":[{"type":"text","text":"Hi","citations":[]},{"type":"text","text":"x","citations":null}]}`,
		"assistant citations": `{"role":"user","content":[` + docBlock + `,{"type":"text","text":"Color?"}]},` +
			`{"role":"assistant","content":[` + citedText + `]},{"role":"user","content":"Thanks"}`,
		"nested document": `{"role":"user","content":"Fetch"},{"role":"assistant","content":[` +
			`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_fetch_result","url":"https://x.example","content":` + docBlock + `}}]},` +
			`{"role":"user","content":"Thanks"}`,
		"cited document": `{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Sky."},"citations":{"enabled":true}},{"type":"text","text":"Hi"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			wantOK(t, e.do(t, "POST", "/v1/messages", withMessages(msgs), version(v2026)))
		})
	}

	// The chat-completions endpoint keeps its parameters whatever the version.
	wantOK(t, e.do(t, "POST", "/v1/chat/completions",
		`{"model":"vendor-sonnet-5-5","temperature":0.5,"top_p":0.9,"messages":[{"role":"user","content":"Hi"}]}`, version(v2026)))
}

func TestMessagesSystemRole(t *testing.T) {
	e := newEnv(t)
	sys := `{"role":"system","content":"Be terse."}`
	for _, v := range []string{v2023, v2026} {
		t.Run(v, func(t *testing.T) {
			for name, msgs := range map[string]string{
				"after user":        `{"role":"user","content":"Hi"},` + sys,
				"mid-conversation":  `{"role":"user","content":"Hi"},` + sys + `,{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}`,
				"blocks":            `{"role":"user","content":"Hi"},{"role":"system","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"text","text":"b","citations":[]}]}`,
				"between user msgs": `{"role":"user","content":"Hi"},` + sys + `,{"role":"user","content":"More"}`,
			} {
				r := e.do(t, "POST", "/v1/messages", withMessages(msgs), version(v))
				require.Equal(t, 200, r.status, "%s: %s", name, r.body)
			}
			const placement = ": a `system` message must come immediately after a `user` message; put the instructions that open the conversation in the top-level `system` field"
			for _, c := range []invalidCase{
				{"first", withMessages(sys + `,{"role":"user","content":"Hi"}`), "messages.0" + placement, nil},
				{"after assistant", withMessages(`{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},` + sys), "messages.2" + placement, nil},
				{"after system", withMessages(`{"role":"user","content":"Hi"},` + sys + `,` + sys), "messages.2" + placement, nil},
				{"image", withMessages(`{"role":"user","content":"Hi"},{"role":"system","content":[{"type":"image","source":{"type":"url","url":"https://x.example/a.png"}}]}`),
					"messages.1.content.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'", nil},
				{"role after content", withMessages(`{"role":"user","content":"Hi"},{"content":[` + docBlock + `],"role":"system"}`),
					"messages.1.content.0: Input tag 'document' found using 'type' does not match any of the expected tags: 'text'", nil},
				{"empty text", withMessages(`{"role":"user","content":"Hi"},{"role":"system","content":[{"type":"text","text":""}]}`),
					"messages: text content blocks must be non-empty", nil},
				{"empty string", withMessages(`{"role":"user","content":"Hi"},{"role":"system","content":""}`),
					"messages.1: all messages must have non-empty content except for the optional final assistant message", nil},
				{"citations", withMessages(`{"role":"user","content":"Hi"},{"role":"system","content":[` + citedText + `]}`),
					"messages.1.content.0.citations: citations are not allowed in `system` messages", nil},
			} {
				t.Run(c.name, func(t *testing.T) {
					wantInvalid(t, e.do(t, "POST", "/v1/messages", c.body, version(v)), c.message)
				})
			}
		})
	}

	// Tool pairing looks through system messages: a user turn split by one
	// is still one turn.
	tools := `"tools":[` + timeTool + `]`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"noon"}]}`
	wantOK(t, e.do(t, "POST", "/v1/messages", withMessages(`{"role":"user","content":"Time?"},`+toolUseAt+`,{"role":"user","content":"here"},`+sys+`,`+result, tools)))
	wantOK(t, e.do(t, "POST", "/v1/messages", withMessages(`{"role":"user","content":"Time?"},`+toolUseAt+`,`+result+`,`+sys, tools)))
	wantInvalid(t, e.do(t, "POST", "/v1/messages", withMessages(`{"role":"user","content":"Time?"},`+toolUseAt+`,{"role":"user","content":"here"},`+sys, tools)),
		"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.")

	// The fake model counts a system message as a message (4 tokens and
	// its text) and answers the user message before it as it would
	// without it.
	count := func(msgs string) float64 {
		return wantOK(t, e.do(t, "POST", countTokensP, countWithMsgs+msgs+`]}`))["input_tokens"].(float64)
	}
	hi := `{"role":"user","content":"Hi"}`
	require.Equal(t, count(hi)+4+3, count(hi+","+sys)) // "Be terse." is 3 tokens
	plain := e.message(t, withMessages(hi))
	withSys := e.message(t, withMessages(hi+","+sys))
	require.Equal(t, plain["content"], withSys["content"])
	require.Equal(t, plain["usage"].(map[string]any)["input_tokens"].(float64)+7, withSys["usage"].(map[string]any)["input_tokens"])
}

func TestTraceMessagesSystemRole(t *testing.T) {
	e := newTraced(t, refserver.WithContentCapture(true))
	e.message(t, withMessages(`{"role":"user","content":"Hi"},{"role":"system","content":[{"type":"text","text":"Be terse."}]}`))
	s := onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantContent(t, s, attr.GenAIInputMessages,
		`[{"role":"user","parts":[{"type":"text","content":"Hi"}]},{"role":"system","parts":[{"type":"text","content":"Be terse."}]}]`)
}

// A batch's requests follow the version the batch was created with,
// whatever version reads it: an invalid request is an errored result, as
// for any invalid request in a batch.
func TestBatchKeepsCreateVersion(t *testing.T) {
	e := newEnv(t)
	body := `{"requests":[{"custom_id":"sampled","params":` + base(`"temperature":0.5`) + `},{"custom_id":"plain","params":` + base("") + `}]}`
	results := func(createdUnder, readUnder string) []map[string]any {
		id := wantOK(t, e.do(t, "POST", "/v1/messages/batches", body, version(createdUnder)))["id"].(string)
		e.clock.Advance(time.Minute)
		require.Equal(t, "ended", wantOK(t, e.do(t, "GET", "/v1/messages/batches/"+id, "", version(readUnder)))["processing_status"])
		r := e.do(t, "GET", "/v1/messages/batches/"+id+"/results", "", version(readUnder))
		require.Equal(t, 200, r.status, string(r.body))
		var out []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(string(r.body)), "\n") {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m))
			out = append(out, m["result"].(map[string]any))
		}
		return out
	}
	got := results(v2026, v2023)
	require.Equal(t, map[string]any{"type": "errored", "error": map[string]any{"type": "error", "request_id": nil,
		"error": map[string]any{"type": "invalid_request_error", "message": "temperature: Extra inputs are not permitted"}}}, got[0])
	require.Equal(t, "succeeded", got[1]["type"])

	got = results(v2023, v2026)
	require.Equal(t, "succeeded", got[0]["type"], got[0])
	require.Equal(t, "succeeded", got[1]["type"])
}

func TestAPIKeyWorkspaceIDByVersion(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	sa := e.srv.CreateServiceAccount("deployer")
	key := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: ws, Name: "ci"})
	seedKeyID := "apikey_010000000000000000000001"
	scope := map[string]any{"type": "workspace", "workspace_id": ws}

	for _, v := range []string{v2023, v2026} {
		get := wantOK(t, e.do(t, "GET", keyPath(key.ID), "", version(v)))
		update := wantOK(t, e.do(t, "POST", keyPath(key.ID), `{"name":"ci-`+v+`"}`, version(v)))
		seed := wantOK(t, e.do(t, "GET", keyPath(seedKeyID), "", version(v)))
		var list struct {
			Data []map[string]any `json:"data"`
		}
		e.do(t, "GET", apiKeysPath, "", version(v)).decode(t, &list)
		require.NotEmpty(t, list.Data)
		for _, obj := range append([]map[string]any{get, update, seed}, list.Data...) {
			wsID, has := obj["workspace_id"]
			if v == v2026 {
				require.False(t, has, "%s: %v", v, obj)
			} else {
				require.True(t, has, "%s: %v", v, obj)
				if obj["id"] == seedKeyID {
					require.Nil(t, wsID)
				}
			}
			require.Contains(t, obj, "scope")
		}
		require.Equal(t, scope, get["scope"])
		if v == v2023 {
			require.Equal(t, ws, get["workspace_id"])
		}
		require.Equal(t, map[string]any{"type": "organization"}, seed["scope"])
	}
}
