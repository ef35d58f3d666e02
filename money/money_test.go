package money_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/money"
)

func TestMoneyWireForm(t *testing.T) {
	b, err := json.Marshal(money.USD(2500))
	require.NoError(t, err)
	require.JSONEq(t, `{"amount":"2500","currency":"USD"}`, string(b))
	var m money.Money
	require.NoError(t, json.Unmarshal(b, &m))
	n, err := m.MinorUnits()
	require.NoError(t, err)
	require.EqualValues(t, 2500, n)
	require.Equal(t, "25.00 USD", m.String())
	require.Equal(t, "0.05 USD", money.USD(5).String())
	require.Equal(t, "0.00 USD", money.USD(0).String())
}

func TestMoneyValidation(t *testing.T) {
	for _, tc := range []struct {
		m     money.Money
		field string
	}{
		{money.Money{Amount: "0", Currency: "USD"}, ""},
		{money.Money{Amount: "9223372036854775807", Currency: "USD"}, ""},
		{money.Money{Amount: "", Currency: "USD"}, "budget.amount"},
		{money.Money{Amount: "0100", Currency: "USD"}, "budget.amount"},
		{money.Money{Amount: "-1", Currency: "USD"}, "budget.amount"},
		{money.Money{Amount: "1.5", Currency: "USD"}, "budget.amount"},
		{money.Money{Amount: "1e3", Currency: "USD"}, "budget.amount"},
		{money.Money{Amount: "10", Currency: "usd"}, "budget.currency"},
		{money.Money{Amount: "10", Currency: "US"}, "budget.currency"},
		{money.Money{Amount: "10", Currency: "EUR"}, ""}, // well formed: the server decides
	} {
		err := tc.m.Validate("budget")
		if tc.field == "" {
			require.NoError(t, err, "%+v", tc.m)
			continue
		}
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v, "%+v", tc.m)
		require.Equal(t, tc.field, v.Field)
	}
	_, err := money.Money{Amount: "99999999999999999999", Currency: "USD"}.MinorUnits()
	require.Error(t, err)
	_, err = money.Money{Amount: "01", Currency: "USD"}.MinorUnits()
	require.Error(t, err)
}
