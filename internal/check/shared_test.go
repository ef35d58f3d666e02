package check_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

type (
	ruleOfA func(field string, a int) error
	unknown func(field string, x float64) error
)

// errA is what the shared ruleOfA returns. The rule is shared once per
// test binary (a rule can be shared only once), so that the test can run
// again (-count).
var (
	errA   = errors.New("a")
	shareA sync.Once
)

func TestSharedRuleIsFoundByItsTypeOnce(t *testing.T) {
	shareA.Do(func() { check.Share[ruleOfA](func(string, int) error { return errA }) })
	require.ErrorIs(t, check.Shared[ruleOfA]()("f", 1), errA)
	require.PanicsWithValue(t, "check: a rule of type check_test.ruleOfA is shared twice",
		func() { check.Share[ruleOfA](func(string, int) error { return nil }) })
	require.PanicsWithValue(t, "check: no rule of type check_test.unknown is shared", func() { check.Shared[unknown]() })
}

func TestPrefixedIDs(t *testing.T) {
	require.NoError(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "vlt_2"}, "vlt_", "a vault id"))
	var v *apierror.ValidationError
	require.ErrorAs(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "x"}, "vlt_", "a vault id"), &v)
	require.Equal(t, "vault_ids[1]", v.Field)
	require.Equal(t, "must be a vault id (`vlt_…`)", v.Rule)
	require.ErrorAs(t, check.PrefixedIDs("vault_ids", []string{"vlt_1", "vlt_1"}, "vlt_", "a vault id"), &v)
	require.Equal(t, "duplicate vault id `vlt_1`", v.Rule)
}
