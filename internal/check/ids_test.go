package check_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

func TestPrefixedIDs(t *testing.T) {
	require.NoError(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "vlt_2"}, "vlt_", "a vault id"))
	var v *apierror.ValidationError
	require.ErrorAs(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "x"}, "vlt_", "a vault id"), &v)
	require.Equal(t, "vault_ids[1]", v.Field)
	require.Equal(t, "must be a vault id (`vlt_…`)", v.Rule)
	require.ErrorAs(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "vlt_1"}, "vlt_", "a vault id"), &v)
	require.Equal(t, "duplicate vault id `vlt_1`", v.Rule)
}
