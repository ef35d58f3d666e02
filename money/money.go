package money

import (
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/moneycheck"
)

// CurrencyUSD is the only currency the platform accepts today.
const CurrencyUSD = "USD"

// Money is an amount of minor units (cents for USD) in a currency.
type Money struct {
	// Amount is a non-negative decimal integer of minor units with no
	// leading zeros: "2500" is 25.00 USD, "0" is zero.
	Amount string `json:"amount"`
	// Currency is an uppercase ISO 4217 code.
	Currency string `json:"currency"`
}

// USD returns minorUnits cents in US dollars.
func USD(minorUnits int64) Money { return New(minorUnits, CurrencyUSD) }

// New returns minorUnits of currency.
func New(minorUnits int64, currency string) Money {
	return Money{Amount: strconv.FormatInt(minorUnits, 10), Currency: currency}
}

// MinorUnits returns the amount as an integer, or an error when it is not a
// valid amount or does not fit in an int64.
func (m Money) MinorUnits() (int64, error) {
	if err := moneycheck.AmountRule(m.Amount); err != "" {
		return 0, &apierror.ValidationError{Field: "amount", Rule: err}
	}
	n, err := strconv.ParseInt(m.Amount, 10, 64)
	if err != nil {
		return 0, &apierror.ValidationError{Field: "amount", Rule: "must fit in a 64-bit integer"}
	}
	return n, nil
}

// String formats USD as "25.00 USD" and other currencies as minor units.
func (m Money) String() string {
	if m.Currency == CurrencyUSD && moneycheck.AmountRule(m.Amount) == "" {
		a := m.Amount
		for len(a) < 3 {
			a = "0" + a
		}
		return a[:len(a)-2] + "." + a[len(a)-2:] + " USD"
	}
	return m.Amount + " minor units of " + m.Currency
}
