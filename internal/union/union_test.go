package union

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMarshalAddsTheDiscriminator(t *testing.T) {
	b, err := Marshal("vendor", struct {
		SkillID string `json:"skill_id"`
	}{"pdf"})
	require.NoError(t, err)
	require.Equal(t, `{"type":"vendor","skill_id":"pdf"}`, string(b))

	b, err = Marshal("self", struct{}{})
	require.NoError(t, err)
	require.Equal(t, `{"type":"self"}`, string(b))

	_, err = Marshal("x", "not an object")
	require.Error(t, err)
}

func TestTypeAndDecodeSlice(t *testing.T) {
	typ, err := Type([]byte(`{"a":1,"type":"custom"}`))
	require.NoError(t, err)
	require.Equal(t, "custom", typ)
	_, err = Type([]byte(`{"a":1}`))
	require.Error(t, err)
	_, err = Type([]byte(`[1]`))
	require.Error(t, err)

	got, err := DecodeSlice([]byte(`[{"type":"a"},{"type":"b"}]`), func(b []byte) (string, error) { return Type(b) })
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, got)
	got, err = DecodeSlice([]byte(`null`), func(b []byte) (string, error) { return Type(b) })
	require.NoError(t, err)
	require.Nil(t, got)
	_, err = DecodeSlice([]byte(`[{"x":1}]`), func(b []byte) (string, error) { return Type(b) })
	require.ErrorContains(t, err, "element 0")

	raw := NewRaw("future", []byte(`{"type":"future","x":1}`))
	b, err := raw.MarshalJSON()
	require.NoError(t, err)
	require.Equal(t, `{"type":"future","x":1}`, string(b))
}
