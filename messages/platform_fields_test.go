package messages_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
)

// TestSpeed: speed is a plain request field of create and count_tokens,
// no beta needed (the fast-mode beta is still accepted); usage echoes it.
func TestSpeed(t *testing.T) {
	env, client := newEnv(t)
	p := prompt("Hello there")
	p.Speed = messages.SpeedFast
	m, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, messages.SpeedFast, m.Usage.Speed)
	require.Equal(t, "fast", lastBody(t, env)["speed"])
	require.Empty(t, env.Server.Requests()[0].Header.Get("Vendor-Beta"))

	m, err = client.Messages.Create(ctx, p, option.WithBeta("fast-mode-2026-02-01"))
	require.NoError(t, err)
	require.Equal(t, messages.SpeedFast, m.Usage.Speed)

	n, err := client.Messages.CountTokens(ctx, p.CountTokensParams())
	require.NoError(t, err)
	require.Positive(t, n.InputTokens)
	require.Equal(t, "fast", lastBody(t, env)["speed"])

	p.Speed = messages.SpeedStandard
	m, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, messages.SpeedStandard, m.Usage.Speed)
}

// TestSpeedRefused: an unknown speed is refused locally, and by the
// server when sent anyway.
func TestSpeedRefused(t *testing.T) {
	env, client := newEnv(t)
	p := prompt("Hello there")
	p.Speed = "turbo"
	var v *apierror.ValidationError
	_, err := client.Messages.Create(ctx, p)
	require.ErrorAs(t, err, &v)
	require.Equal(t, "speed", v.Field)
	_, err = client.Messages.CountTokens(ctx, p.CountTokensParams())
	require.ErrorAs(t, err, &v)
	require.Equal(t, "speed", v.Field)
	require.Empty(t, env.Server.Requests())

	p.Speed = ""
	p.Extra = map[string]json.RawMessage{"speed": json.RawMessage(`"turbo"`)}
	_, err = client.Messages.Create(ctx, p)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	require.Equal(t, "speed: Input should be 'standard' or 'fast'", apiErr.Message)
}

// codeTurn runs code, so the response carries its container.
func codeTurn() messages.MessageParams {
	p := prompt("code_execution echo 4")
	p.Tools = []messages.Tool{messages.CodeExecutionTool{}}
	return p
}

// TestContainerForms: the bare id reuses a container; the object form
// loads skills, echoed in the response's container.skills ([] when none).
func TestContainerForms(t *testing.T) {
	env, client := newEnv(t)
	first, err := client.Messages.Create(ctx, codeTurn())
	require.NoError(t, err)
	require.NotNil(t, first.Container)
	require.NotNil(t, first.Container.Skills)
	require.Empty(t, first.Container.Skills)
	var raw map[string]json.RawMessage

	p := codeTurn()
	p.Container = param.Value(messages.ContainerParams{ID: first.Container.ID})
	again, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, first.Container.ID, again.Container.ID)
	require.NoError(t, json.Unmarshal(lastRawBody(t, env), &raw))
	require.JSONEq(t, `"`+first.Container.ID+`"`, string(raw["container"]))

	skills := []messages.SkillParams{
		{SkillID: "pptx", Type: messages.SkillVendor},
		{SkillID: "skill_01AbCdEfGhIjKlMnOpQrStUv", Type: messages.SkillCustom, Version: "1759178010641129"},
	}
	p.Container = param.Value(messages.ContainerParams{ID: first.Container.ID, Skills: skills})
	withSkills, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, first.Container.ID, withSkills.Container.ID)
	require.Equal(t, []messages.ContainerSkill{
		{SkillID: "pptx", Type: messages.SkillVendor, Version: "latest"},
		{SkillID: "skill_01AbCdEfGhIjKlMnOpQrStUv", Type: messages.SkillCustom, Version: "1759178010641129"},
	}, withSkills.Container.Skills)
	require.NoError(t, json.Unmarshal(lastRawBody(t, env), &raw))
	require.JSONEq(t, `{"id":"`+first.Container.ID+`","skills":[{"skill_id":"pptx","type":"vendor"},`+
		`{"skill_id":"skill_01AbCdEfGhIjKlMnOpQrStUv","type":"custom","version":"1759178010641129"}]}`, string(raw["container"]))

	// Skills without an id start a new container; in a stream too.
	p.Container = param.Value(messages.ContainerParams{Skills: skills[:1]})
	st, err := client.Messages.Stream(ctx, p)
	require.NoError(t, err)
	streamed, err := st.Message()
	require.NoError(t, err)
	require.NotEqual(t, first.Container.ID, streamed.Container.ID)
	require.Equal(t, []messages.ContainerSkill{{SkillID: "pptx", Type: messages.SkillVendor, Version: "latest"}}, streamed.Container.Skills)

	p.Container = param.Null[messages.ContainerParams]()
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
}

// TestContainerSkillsRefused: a skill with no id or an unknown type is
// refused locally, and by the server when sent anyway.
func TestContainerSkillsRefused(t *testing.T) {
	env, client := newEnv(t)
	var v *apierror.ValidationError
	for field, skill := range map[string]messages.SkillParams{
		"container.skills.0.skill_id": {Type: messages.SkillVendor},
		"container.skills.0.type":     {SkillID: "pptx", Type: "vendor_builtin"},
	} {
		p := codeTurn()
		p.Container = param.Value(messages.ContainerParams{Skills: []messages.SkillParams{skill}})
		_, err := client.Messages.Create(ctx, p)
		require.ErrorAs(t, err, &v)
		require.Equal(t, field, v.Field)
	}
	require.Empty(t, env.Server.Requests())

	p := codeTurn()
	p.Extra = map[string]json.RawMessage{"container": json.RawMessage(`{"skills":[{"skill_id":"pptx","type":"anthropic"}]}`)}
	_, err := client.Messages.Create(ctx, p)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "container.skills.0.type: Input should be 'vendor' or 'custom'", apiErr.Message)
	p.Extra = map[string]json.RawMessage{"container": json.RawMessage(`7`)}
	_, err = client.Messages.Create(ctx, p)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "container: Input should be a valid string or a valid dictionary", apiErr.Message)
}

// TestUserProfileHeader: WithUserProfileID sends vendor-user-profile-id on
// create, count_tokens and batch create; the server refuses a malformed id
// with a 400 that names the header.
func TestUserProfileHeader(t *testing.T) {
	env, client := newEnv(t)
	const id = "uprof_01AbCdEfGhIjKlMnOpQrStUv"
	hello := prompt("Hello there")
	count := hello.CountTokensParams()
	_, err := client.Messages.Create(ctx, prompt("Hello there"), option.WithUserProfileID(id))
	require.NoError(t, err)
	_, err = client.Messages.CountTokens(ctx, count, option.WithUserProfileID(id))
	require.NoError(t, err)
	_, err = client.Messages.Batches.Create(ctx, batchOf("Hello"), option.WithUserProfileID(id))
	require.NoError(t, err)
	reqs := env.Server.Requests()
	require.Len(t, reqs, 3)
	for _, r := range reqs {
		require.Equal(t, id, r.Header.Get("Vendor-User-Profile-Id"))
	}

	var apiErr *apierror.Error
	for _, call := range []func(option.Option) error{
		func(o option.Option) error {
			_, err := client.Messages.Create(ctx, prompt("Hello there"), o)
			return err
		},
		func(o option.Option) error {
			_, err := client.Messages.CountTokens(ctx, count, o)
			return err
		},
		func(o option.Option) error {
			_, err := client.Messages.Batches.Create(ctx, batchOf("Hello"), o)
			return err
		},
	} {
		err := call(option.WithUserProfileID("user-42"))
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		require.Contains(t, apiErr.Message, "vendor-user-profile-id")
	}

	var v *apierror.ValidationError
	_, err = client.Messages.Create(ctx, prompt("Hello there"), option.WithUserProfileID(""))
	require.ErrorAs(t, err, &v)
	require.Equal(t, "vendor-user-profile-id", v.Field)
}

// TestPlatformFieldsInBatch: batch requests reuse MessageParams, so the
// new fields go through a batch too, and a batch result's id can be named
// as the previous message of a diagnosed request.
func TestPlatformFieldsInBatch(t *testing.T) {
	_, clock, c := batchEnv(t)
	p := codeTurn()
	p.Speed = messages.SpeedFast
	p.Diagnostics = &messages.DiagnosticsParams{}
	p.Container = param.Value(messages.ContainerParams{Skills: []messages.SkillParams{{SkillID: "pptx", Type: messages.SkillVendor}}})
	b, err := c.Messages.Batches.Create(ctx, messages.BatchCreateParams{Requests: []messages.BatchRequest{{CustomID: "r0", Params: p}}})
	require.NoError(t, err)
	clock.Advance(time.Second)
	m := results(t, c, b.ID)["r0"].(messages.BatchSucceeded).Message
	require.Equal(t, messages.SpeedFast, m.Usage.Speed)
	require.Nil(t, m.Diagnostics)
	require.Equal(t, []messages.ContainerSkill{{SkillID: "pptx", Type: messages.SkillVendor, Version: "latest"}}, m.Container.Skills)

	next := p
	next.Messages = append(append([]messages.MessageParam(nil), p.Messages...), m.Param(), messages.UserText("Thanks"))
	next.Diagnostics = &messages.DiagnosticsParams{PreviousMessageID: &m.ID}
	next.Speed = messages.SpeedStandard
	again, err := c.Messages.Create(ctx, next)
	require.NoError(t, err)
	require.Equal(t, messages.CacheMissModelChanged, again.Diagnostics.CacheMissReason.Type)
}

// lastRawBody is the body of the last request the server received.
func lastRawBody(t *testing.T, env *reftest.Env) []byte {
	t.Helper()
	reqs := env.Server.Requests()
	require.NotEmpty(t, reqs)
	return reqs[len(reqs)-1].Body
}
