package pipeline

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/config"
)

func TestEditQuery(t *testing.T) {
	for _, tc := range []struct {
		q     string
		edits []config.QueryEdit
		want  string
	}{
		{"", []config.QueryEdit{{Key: "a", Value: "1"}}, "a=1"},
		{"a=1&b=2&a=3", []config.QueryEdit{{Key: "a", Value: "x y"}}, "b=2&a=x+y"},
		{"a=1", []config.QueryEdit{{Key: "a", Value: "2", Add: true}}, "a=1&a=2"},
		// The SDK writes bracket keys literally; a caller's key matches
		// them escaped or not, and is itself sent with literal brackets.
		{"created_at[gte]=t&created_at%5Blte%5D=u", []config.QueryEdit{{Key: "created_at[gte]", Value: "v"}, {Key: "created_at[lte]", Value: "w"}},
			"created_at[gte]=v&created_at[lte]=w"},
		{"k%20y=1", []config.QueryEdit{{Key: "k y", Value: "2"}}, "k+y=2"},
		{"a=1", []config.QueryEdit{{Key: "a&b", Value: "="}}, "a=1&a%26b=%3D"},
	} {
		require.Equal(t, tc.want, editQuery(tc.q, tc.edits), "%q %+v", tc.q, tc.edits)
	}
}

func TestEditBody(t *testing.T) {
	set := func(path, value string) config.BodyEdit {
		var c config.Config
		require.NoError(t, c.EditJSON("set", path, json.RawMessage(value)))
		return c.BodyEdits[0]
	}
	del := func(path string) config.BodyEdit {
		e := set(path, "")
		e.Value = nil
		return e
	}
	for _, tc := range []struct {
		body  string
		edits []config.BodyEdit
		want  string
	}{
		{`{"a":1}`, []config.BodyEdit{set("b", `2`)}, `{"a":1,"b":2}`},
		{`{"a":1}`, []config.BodyEdit{set("a", `{"x":[1]}`)}, `{"a":{"x":[1]}}`},
		{`{"a":null}`, []config.BodyEdit{set("a.b.c", `true`)}, `{"a":{"b":{"c":true}}}`},
		{`{"m":[{"c":"x"},{"c":"y"}]}`, []config.BodyEdit{set("m.1.c", `"z"`)}, `{"m":[{"c":"x"},{"c":"z"}]}`},
		{`{"m":[1,2,3]}`, []config.BodyEdit{del("m.0")}, `{"m":[2,3]}`},
		{`{"a":{"b":1,"c":2}}`, []config.BodyEdit{del("a.b"), del("a.zz"), del("q.r")}, `{"a":{"c":2}}`},
		{`{"a.b":1}`, []config.BodyEdit{set(`a\.b`, `2`), set(`c\\d`, `3`)}, `{"a.b":2,"c\\d":3}`},
	} {
		got, err := editBody([]byte(tc.body), tc.edits)
		require.NoError(t, err, tc.body)
		require.JSONEq(t, tc.want, string(got), tc.body)
	}
	// Numbers keep their digits, beyond what a float64 holds.
	got, err := editBody([]byte(`{"n":123456789012345678901234567890}`), []config.BodyEdit{set("x", `1e400`)})
	require.NoError(t, err)
	require.Equal(t, `{"n":123456789012345678901234567890,"x":1e400}`, string(got))
	got, err = editBody(nil, []config.BodyEdit{set("a", `1`)})
	require.NoError(t, err)
	require.JSONEq(t, `{"a":1}`, string(got))
	for _, body := range []string{`[]`, `"s"`, `1`, `null`, `true`, ` `} {
		_, err := editBody([]byte(body), []config.BodyEdit{set("a", `1`)})
		require.ErrorContains(t, err, "not a JSON object", body)
	}
}
