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

func TestMinorUnitsRefusesWhatIsNotAnAmount(t *testing.T) {
	for _, amount := range []string{"", "0100", "-1", "1.5", "1e3", "99999999999999999999", "01"} {
		_, err := money.Money{Amount: amount, Currency: "USD"}.MinorUnits()
		var v *apierror.ValidationError
		require.ErrorAs(t, err, &v, amount)
		require.Equal(t, "amount", v.Field)
	}
}
