package messages_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/param"
)

// TestContainerParamsRoundTrip: the bare id and the object form are
// written as the API takes them and read back to the same value.
func TestContainerParamsRoundTrip(t *testing.T) {
	for want, c := range map[string]messages.ContainerParams{
		`"container_01"`: {ID: "container_01"},
		`{"skills":[{"skill_id":"pptx","type":"vendor"}]}`: {Skills: []messages.SkillParams{{SkillID: "pptx", Type: messages.SkillVendor}}},
		`{"id":"container_01","skills":[{"skill_id":"skill_01","type":"custom","version":"latest"}]}`: {ID: "container_01",
			Skills: []messages.SkillParams{{SkillID: "skill_01", Type: messages.SkillCustom, Version: "latest"}}},
		`{}`: {},
	} {
		got, err := json.Marshal(c)
		require.NoError(t, err)
		require.JSONEq(t, want, string(got))
		var back messages.ContainerParams
		require.NoError(t, json.Unmarshal(got, &back))
		require.Equal(t, c, back)
	}
	var c messages.ContainerParams
	require.Error(t, json.Unmarshal([]byte(`7`), &c))

	// Inside MessageParams: omitted, null, and set.
	p := messages.MessageParams{Model: "m", Messages: []messages.MessageParam{messages.UserText("x")}}
	b, err := json.Marshal(p)
	require.NoError(t, err)
	require.NotContains(t, string(b), "container")
	p.Container = param.Null[messages.ContainerParams]()
	b, err = json.Marshal(p)
	require.NoError(t, err)
	require.Contains(t, string(b), `"container":null`)
}

// TestPlatformParamsWire: diagnostics with a nil id sends null; speed is
// left out when unset.
func TestPlatformParamsWire(t *testing.T) {
	id := "msg_01"
	for want, p := range map[string]messages.MessageParams{
		`{"model":"m","max_tokens":0,"messages":[],"diagnostics":{"previous_message_id":null}}`: {Model: "m",
			Messages: []messages.MessageParam{}, Diagnostics: &messages.DiagnosticsParams{}},
		`{"model":"m","max_tokens":0,"messages":[],"diagnostics":{"previous_message_id":"msg_01"},"speed":"fast"}`: {Model: "m",
			Messages: []messages.MessageParam{}, Diagnostics: &messages.DiagnosticsParams{PreviousMessageID: &id}, Speed: messages.SpeedFast},
		`{"model":"m","max_tokens":0,"messages":[]}`: {Model: "m", Messages: []messages.MessageParam{}},
	} {
		got, err := json.Marshal(p)
		require.NoError(t, err)
		require.JSONEq(t, want, string(got))
	}
	got, err := json.Marshal(messages.CountTokensParams{Model: "m", Messages: []messages.MessageParam{}, Speed: messages.SpeedStandard})
	require.NoError(t, err)
	require.JSONEq(t, `{"model":"m","messages":[],"speed":"standard"}`, string(got))
}

// TestContainerResponseRoundTrip: skills are read and written back with
// unknown members kept, [] as [].
func TestContainerResponseRoundTrip(t *testing.T) {
	in := `{"id":"container_01","expires_at":"2026-03-02T10:00:00.000000Z",` +
		`"skills":[{"skill_id":"pptx","type":"vendor","version":"latest","loaded_at":"x"}],"size":"small"}`
	var c messages.Container
	require.NoError(t, json.Unmarshal([]byte(in), &c))
	require.Equal(t, []messages.ContainerSkill{{SkillID: "pptx", Type: messages.SkillVendor, Version: "latest",
		Extra: map[string]json.RawMessage{"loaded_at": json.RawMessage(`"x"`)}}}, c.Skills)
	out, err := json.Marshal(c)
	require.NoError(t, err)
	require.JSONEq(t, in, string(out))

	empty := `{"id":"container_01","expires_at":"2026-03-02T10:00:00.000000Z","skills":[]}`
	c = messages.Container{}
	require.NoError(t, json.Unmarshal([]byte(empty), &c))
	require.Equal(t, time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), c.ExpiresAt)
	require.NotNil(t, c.Skills)
	out, err = json.Marshal(c)
	require.NoError(t, err)
	require.JSONEq(t, empty, string(out))
}
