package authtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth/authtest"
)

func TestAttestorProofs(t *testing.T) {
	ctx := context.Background()
	a := authtest.NewAttestor("ABCDE12345.com.example.app")
	id, err := a.GenerateKey(ctx)
	require.NoError(t, err)
	require.Zero(t, a.Counter(id))

	proof, err := a.AttestKey(ctx, id, []byte("hash"))
	require.NoError(t, err)
	var att struct{ Fmt, PublicKey, Signature string }
	require.NoError(t, json.Unmarshal(proof, &att))
	require.Equal(t, authtest.Format, att.Fmt)

	for i := range 2 {
		proof, err = a.GenerateAssertion(ctx, id, []byte("hash"))
		require.NoError(t, err)
		var as struct {
			Fmt     string
			Counter uint32
		}
		require.NoError(t, json.Unmarshal(proof, &as))
		require.Equal(t, uint32(i+1), as.Counter)
	}
	require.Equal(t, uint32(2), a.Counter(id))

	_, err = a.GenerateAssertion(ctx, "unknown", nil)
	require.Error(t, err)
	require.Equal(t, "authtest.Attestor(ABCDE12345.com.example.app)", fmt.Sprintf("%v %#v", a, a)[:len("authtest.Attestor(ABCDE12345.com.example.app)")])
}
