package moneycheck_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/moneycheck"
)

func TestAmount(t *testing.T) {
	for _, tc := range []struct {
		amount, currency string
		field            string // "" when valid
	}{
		{"0", "USD", ""},
		{"9223372036854775807", "USD", ""},
		{"99999999999999999999", "USD", ""}, // no size limit: callers set their own
		{"", "USD", "budget.amount"},
		{"0100", "USD", "budget.amount"},
		{"-1", "USD", "budget.amount"},
		{"1.5", "USD", "budget.amount"},
		{"1e3", "USD", "budget.amount"},
		{"10", "usd", "budget.currency"},
		{"10", "US", "budget.currency"},
		{"10", "EUR", ""}, // well formed: the server decides
	} {
		err := moneycheck.Amount("budget", tc.amount, tc.currency)
		if tc.field == "" {
			require.NoError(t, err, "%+v", tc)
			continue
		}
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v, "%+v", tc)
		require.Equal(t, tc.field, v.Field)
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	}
	var v *apierror.ValidationError
	require.ErrorAs(t, moneycheck.Amount("", "x", "USD"), &v)
	require.Equal(t, "amount", v.Field, "no prefix")
}

func TestCeiling(t *testing.T) {
	require.NoError(t, moneycheck.Ceiling("budget.max_list_cost", "1", "USD"))
	require.NoError(t, moneycheck.Ceiling("budget.max_list_cost", "999999999999999999", "USD"))
	for _, tc := range []struct{ amount, currency, field, message string }{
		{"0", "USD", "budget.max_list_cost.amount", "must be at least 1"},
		{"1000000000000000000", "USD", "budget.max_list_cost.amount", "must have at most 18 digits"},
		{"01", "USD", "budget.max_list_cost.amount", "must not have leading zeros"},
		{"5", "usd", "budget.max_list_cost.currency", "ISO 4217"},
	} {
		err := moneycheck.Ceiling("budget.max_list_cost", tc.amount, tc.currency)
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v, "%+v", tc)
		require.Equal(t, tc.field, v.Field)
		require.ErrorContains(t, err, tc.message)
	}
}

var (
	amountRule   = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	currencyRule = regexp.MustCompile(`^[A-Z]{3}$`)
)

// FuzzAmount checks that Amount accepts exactly a canonical amount and an
// uppercase three-letter code, and otherwise names the broken member.
func FuzzAmount(f *testing.F) {
	for _, seed := range [][2]string{
		{"2500", "USD"}, {"0", "USD"}, {"", "USD"}, {"0100", "USD"}, {"-1", "USD"}, {"1.5", "usd"},
		{"1e3", "US"}, {"10", "EUR"}, {"１２", "ÜSD"}, {"12\x00", "US\xff"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, amount, currency string) {
		err := moneycheck.Amount("budget.max_list_cost", amount, currency)
		var v *apierror.ValidationError
		switch {
		case !amountRule.MatchString(amount):
			if !errors.As(err, &v) || v.Field != "budget.max_list_cost.amount" || moneycheck.AmountRule(amount) == "" {
				t.Fatalf("Amount(%q, %q) = %v, want an amount error", amount, currency, err)
			}
		case !currencyRule.MatchString(currency):
			if !errors.As(err, &v) || v.Field != "budget.max_list_cost.currency" {
				t.Fatalf("Amount(%q, %q) = %v, want a currency error", amount, currency, err)
			}
		case err != nil || moneycheck.AmountRule(amount) != "":
			t.Fatalf("Amount(%q, %q) = %v", amount, currency, err)
		}
	})
}
