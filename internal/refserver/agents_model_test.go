package refserver_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// modelOf renders an agent's model config as JSON.
func modelOf(t *testing.T, agent map[string]any) string {
	t.Helper()
	b, err := json.Marshal(agent["model"])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAgentModelMustBeInCatalogue: an agent's model id names a catalogue
// model, in both request forms, on create, update and session overrides.
func TestAgentModelMustBeInCatalogue(t *testing.T) {
	f := newSessionFixture(t)
	for body, message := range map[string]string{
		`{"name":"n","model":"gpt-4o"}`:                           "model: unknown model `gpt-4o`; the models are listed by GET /v1/models",
		`{"name":"n","model":{"id":"gpt-4o"}}`:                    "model.id: unknown model `gpt-4o`; the models are listed by GET /v1/models",
		`{"name":"n","model":"VENDOR-OPUS-5-5"}`:                  "model: unknown model `VENDOR-OPUS-5-5`; the models are listed by GET /v1/models",
		`{"name":"n","model":"` + strings.Repeat("m", 256) + `"}`: "model: unknown model `" + strings.Repeat("m", 256) + "`; the models are listed by GET /v1/models",
	} {
		wantInvalid(t, f.do(t, "POST", "/v1/agents", body, agentsBeta), message)
	}
	wantInvalid(t, f.do(t, "POST", "/v1/agents/"+f.agent, `{"version":1,"model":"gpt-4o"}`, agentsBeta),
		"model: unknown model `gpt-4o`; the models are listed by GET /v1/models")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","model":{"id":"gpt-4o"}},
		"environment_id":"`+f.envID+`"}`), "agent.model.id: unknown model `gpt-4o`; the models are listed by GET /v1/models")

	// Every catalogue id is accepted, the deprecated generation included.
	for _, id := range []string{"vendor-opus-5-5", "vendor-sonnet-5-5", "vendor-haiku-5-5", "vendor-opus-4-5", "vendor-sonnet-4-5", "vendor-haiku-4-5"} {
		f.createAgentJSON(t, `{"name":"n","model":"`+id+`"}`)
	}
}

// TestAgentEffortFollowsModelCapabilities: an effort named in the request
// must be one the model's catalogue entry supports; the default effort
// always works, so a model config read from an agent can be sent back.
func TestAgentEffortFollowsModelCapabilities(t *testing.T) {
	f := newSessionFixture(t)
	for body, message := range map[string]string{
		`{"name":"n","model":{"id":"vendor-sonnet-5-5","effort":"xhigh"}}`:          "model.effort: xhigh is not supported by vendor-sonnet-5-5",
		`{"name":"n","model":{"id":"vendor-sonnet-5-5","effort":{"type":"xhigh"}}}`: "model.effort: xhigh is not supported by vendor-sonnet-5-5",
		`{"name":"n","model":{"id":"vendor-haiku-5-5","effort":"low"}}`:             "model.effort: low is not supported by vendor-haiku-5-5",
		`{"name":"n","model":{"id":"vendor-opus-4-5","effort":"xhigh"}}`:            "model.effort: xhigh is not supported by vendor-opus-4-5",
	} {
		wantInvalid(t, f.do(t, "POST", "/v1/agents", body, agentsBeta), message)
	}
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`",
		"model":{"id":"vendor-sonnet-5-5","effort":"xhigh"}},"environment_id":"`+f.envID+`"}`),
		"agent.model.effort: xhigh is not supported by vendor-sonnet-5-5")

	// Supported levels and the default (named by omission or null) pass,
	// even for a model without effort support.
	for body, want := range map[string]string{
		`{"name":"n","model":{"id":"vendor-sonnet-5-5","effort":"max"}}`: `{"id":"vendor-sonnet-5-5","effort":{"type":"max"},"inference_geo":null,"speed":"standard"}`,
		`{"name":"n","model":{"id":"vendor-opus-5-5","effort":"xhigh"}}`: `{"id":"vendor-opus-5-5","effort":{"type":"xhigh"},"inference_geo":null,"speed":"standard"}`,
		`{"name":"n","model":"vendor-haiku-5-5"}`:                        `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"standard"}`,
		`{"name":"n","model":{"id":"vendor-haiku-5-5","effort":"high"}}`: `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"standard"}`,
		`{"name":"n","model":{"id":"vendor-haiku-5-5","effort":null}}`:   `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"standard"}`,
		`{"name":"n","model":{"id":"vendor-haiku-5-5","speed":"fast"}}`:  `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"fast"}`,
	} {
		if got := modelOf(t, f.createAgentJSON(t, body)); !jsonEqual(got, want) {
			t.Fatalf("%s: model %s, want %s", body, got, want)
		}
	}
	wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`",
		"model":{"id":"vendor-haiku-5-5"}},"environment_id":"`+f.envID+`"}`))
}

// TestAgentUpdateModelKeepsEffort: on update an omitted effort keeps the
// stored one, so changing only the model is refused, naming model, when the
// new model excludes the stored effort; the default effort moves to any
// model.
func TestAgentUpdateModelKeepsEffort(t *testing.T) {
	e := newEnv(t)
	xhigh := e.createAgentJSON(t, `{"name":"x","model":{"id":"vendor-opus-5-5","effort":"xhigh"}}`)["id"].(string)
	for _, body := range []string{
		`{"version":1,"model":"vendor-sonnet-5-5"}`,
		`{"version":1,"model":{"id":"vendor-sonnet-5-5","speed":"fast"}}`,
	} {
		wantInvalid(t, e.do(t, "POST", "/v1/agents/"+xhigh, body, agentsBeta),
			"model: the agent's effort xhigh is not supported by vendor-sonnet-5-5; send model.effort to change it")
	}
	// Naming a supported effort, or resetting it to the default, moves it.
	got := wantOK(t, e.do(t, "POST", "/v1/agents/"+xhigh, `{"version":1,"model":{"id":"vendor-sonnet-5-5","effort":"max"}}`, agentsBeta))
	if m := modelOf(t, got); !jsonEqual(m, `{"id":"vendor-sonnet-5-5","effort":{"type":"max"},"inference_geo":null,"speed":"standard"}`) {
		t.Fatalf("model %s", m)
	}
	got = wantOK(t, e.do(t, "POST", "/v1/agents/"+xhigh, `{"version":2,"model":{"id":"vendor-haiku-5-5","effort":null}}`, agentsBeta))
	if m := modelOf(t, got); !jsonEqual(m, `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"standard"}`) {
		t.Fatalf("model %s", m)
	}

	// An agent on the default effort changes model freely, to one without
	// effort support too.
	plain := e.createAgentJSON(t, `{"name":"p","model":"vendor-opus-5-5"}`)["id"].(string)
	got = wantOK(t, e.do(t, "POST", "/v1/agents/"+plain, `{"version":1,"model":"vendor-haiku-5-5"}`, agentsBeta))
	if m := modelOf(t, got); !jsonEqual(m, `{"id":"vendor-haiku-5-5","effort":{"type":"high"},"inference_geo":null,"speed":"standard"}`) {
		t.Fatalf("model %s", m)
	}
}
