package wire_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		`""`:                 "",
		`"plain"`:            "plain",
		`"é and 日本"`:         "é and 日本",
		`"a\"b\\c\nd\u00e9"`: "a\"b\\c\nd\u00e9",
		`"\ud83d\ude00"`:     "\U0001F600",
	} {
		got, ok := wire.String([]byte(in))
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{
		``, `"`, `x`, `"a" `, `"a","b"`, `"a"b"`, "\"a\nb\"", "\"\xff\"", `"\x"`, `"\ud83d"`, `"abc\"`, `5`,
	} {
		_, ok := wire.String([]byte(in))
		require.False(t, ok, "%q", in)
	}
}

func FuzzStringAgreesWithTheDecoder(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b"`, `"\u00e9"`, `"x","y"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := wire.String([]byte(s))
		var want string
		err := wire.Unmarshal([]byte(s), &want)
		if ok {
			require.NoError(t, err, "%q", s)
			require.Equal(t, want, got, "%q", s)
		}
	})
}
