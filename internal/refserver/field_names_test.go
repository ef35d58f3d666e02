package refserver_test

import (
	"net/http"
	"testing"
)

// Member names match exactly, on every endpoint: a case variant of a known
// field is an unknown field, nested or not, as Messages has always said.
// (encoding/json alone would fold "NAME" onto name.)
func TestFieldNamesMatchExactly(t *testing.T) {
	f := newSessionFixture(t)
	sid := f.sessionID(t, "")
	store := wantOK(t, f.ma(t, "POST", memoryStoresPath, `{"name":"m"}`))["id"].(string)
	cases := []struct {
		name, method, path, body, message string
		managed                           bool
	}{
		{"agent", "POST", "/v1/agents", `{"NAME":"a","MODEL":"vendor-haiku-5-5"}`, "NAME: unknown field", true},
		{"agent model config", "POST", "/v1/agents", `{"name":"a","model":{"ID":"vendor-haiku-5-5"}}`, "model.ID: unknown field", true},
		{"agent update", "POST", "/v1/agents/" + f.agent, `{"Version":1}`, "Version: unknown field", true},
		{"environment", "POST", "/v1/environments", `{"Name":"e"}`, "Name: unknown field", true},
		{"session", "POST", sessionsPath, `{"agent":"` + f.agent + `","Environment_ID":"` + f.envID + `"}`, "Environment_ID: unknown field", true},
		{"session update", "POST", sessionsPath + "/" + sid, `{"Title":"t"}`, "Title: unknown field", true},
		{"session event", "POST", sessionsPath + "/" + sid + "/events", `{"events":[{"type":"user.message","Content":[{"type":"text","text":"hi"}]}]}`, "events[0].Content: unknown field", true},
		{"memory store", "POST", memoryStoresPath, `{"NAME":"m"}`, "NAME: unknown field", true},
		{"memory", "POST", memoryStoresPath + "/" + store + "/memories", `{"Path":"/a.md","content":"x"}`, "Path: unknown field", true},
		{"deployment", "POST", deploymentsPath, `{"Name":"d"}`, "Name: unknown field", true},
		{"workspace", "POST", workspacesPath, `{"NAME":"w"}`, "NAME: unknown field", false},
		{"message", "POST", "/v1/messages", `{"MODEL":"vendor-haiku-5-5","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, "MODEL: Extra inputs are not permitted", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r response
			if tc.managed {
				r = f.ma(t, tc.method, tc.path, tc.body)
			} else {
				r = f.do(t, tc.method, tc.path, tc.body)
			}
			if r.status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", r.status, r.body)
			}
			wantInvalid(t, r, tc.message)
		})
	}
}
