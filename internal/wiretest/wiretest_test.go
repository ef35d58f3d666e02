package wiretest_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		same    bool
	}{
		{`{"a":1,"b":null}`, `{"a":1}`, true},
		{`{"a":1,"b":null}`, `{"b":null,"a":1.0}`, true},
		{`{"t":"2026-01-01T00:00:00.120000Z"}`, `{"t":"2026-01-01T00:00:00.12Z"}`, true},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`{"a":""}`, `{}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{`{"t":"2026-01-01T00:00:00Z"}`, `{"t":"2026-01-01T00:00:01Z"}`, false},
	} {
		err := wiretest.SameJSON([]byte(tc.in), []byte(tc.out))
		require.Equal(t, tc.same, err == nil, "%s vs %s: %v", tc.in, tc.out, err)
	}
}

func TestEqualComparesRawJSONAsJSON(t *testing.T) {
	a := map[string]json.RawMessage{"x": json.RawMessage(`{ "a" : "&" }`)}
	b := map[string]json.RawMessage{"x": json.RawMessage(`{"a":"\u0026"}`)}
	require.Empty(t, cmp.Diff(a, b, wiretest.Equal))
	require.NotEmpty(t, cmp.Diff(a, map[string]json.RawMessage{"x": json.RawMessage(`{"a":"b"}`)}, wiretest.Equal))
}

func TestSeen(t *testing.T) {
	type inner struct{ N int }
	type name string
	type outer struct {
		P *inner
		I any
		S []name
		M map[string]inner
	}
	seen := map[string]bool{}
	wiretest.Seen(outer{I: inner{}, S: []name{"a"}}, seen)
	require.Equal(t, map[string]bool{"outer": true, "inner": true, "name": true}, seen)
}
