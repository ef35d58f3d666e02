package param_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/param"
)

type update struct {
	Title    param.Nullable[string] `json:"title,omitzero"`
	Limit    param.Nullable[int]    `json:"limit,omitzero"`
	Metadata map[string]*string     `json:"metadata,omitzero"`
}

func TestNullableThreeStates(t *testing.T) {
	b, err := json.Marshal(update{})
	require.NoError(t, err)
	require.JSONEq(t, `{}`, string(b))

	b, err = json.Marshal(update{Title: param.Null[string](), Limit: param.Value(0),
		Metadata: map[string]*string{"keep": new("v"), "drop": nil}})
	require.NoError(t, err)
	require.JSONEq(t, `{"title":null,"limit":0,"metadata":{"keep":"v","drop":null}}`, string(b))

	var u update
	require.NoError(t, json.Unmarshal([]byte(`{"title":null,"limit":7}`), &u))
	require.True(t, u.Title.IsNull())
	v, ok := u.Limit.Get()
	require.True(t, ok)
	require.Equal(t, 7, v)
	require.Error(t, json.Unmarshal([]byte(`{"limit":"x"}`), &u))
}

type secret string

func (secret) String() string { return "[redacted]" }

func TestNullablePrintsThroughTheValuesOwnFormatting(t *testing.T) {
	type params struct{ Token param.Nullable[secret] }
	out := fmt.Sprintf("%v %+v %#v", params{param.Value(secret("s3cr3t"))}, params{param.Value(secret("s3cr3t"))}, params{})
	require.NotContains(t, out, "s3cr3t")
	require.Contains(t, out, "[redacted]")
	require.Equal(t, "null", fmt.Sprint(param.Null[int]()))
	require.Equal(t, "<omitted>", fmt.Sprint(param.Nullable[int]{}))
	require.Equal(t, "7", fmt.Sprint(param.Value(7)))
}

func TestSecretNeverPrints(t *testing.T) {
	s := param.Secret("tok_live_canary")
	out := fmt.Sprintf("%v %+v %#v %s %q %x", s, s, s, s, s, s)
	require.NotContains(t, out, "canary")
	require.Equal(t, "", param.Secret("").String(), "an unset secret shows as unset")
	b, err := json.Marshal(struct{ Token param.Secret }{s})
	require.NoError(t, err)
	require.Contains(t, string(b), "tok_live_canary", "the JSON body carries it")
}
