package money_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/money"
)

var (
	amountRule = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	usdText    = regexp.MustCompile(`^([0-9]+)\.([0-9]{2}) USD$`)
)

// parseUSD reads String's form of a valid USD amount, "25.00 USD", back
// into minor units as a decimal string.
func parseUSD(s string) (string, bool) {
	m := usdText.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	units := strings.TrimLeft(m[1]+m[2], "0")
	if units == "" {
		units = "0"
	}
	return units, true
}

// FuzzMoney checks money parsing: for any amount, currency and int64,
//
//   - nothing panics;
//   - MinorUnits accepts exactly the canonical non-negative decimals that
//     fit an int64 (math/big decides), and New gives the same Money back;
//   - a valid USD amount prints as "I.FF USD", which parses back to the
//     same amount (parse, String, parse);
//   - the JSON form round-trips.
func FuzzMoney(f *testing.F) {
	for _, seed := range []struct {
		amount, currency string
		n                int64
	}{
		{"2500", "USD", 2500},
		{"0", "USD", 0},
		{"5", "USD", 5},
		{"9223372036854775807", "USD", math.MaxInt64},
		{"9223372036854775808", "USD", math.MinInt64},
		{"99999999999999999999", "EUR", -1},
		{"", "USD", 0},
		{"0100", "USD", 100},
		{"-1", "USD", -1},
		{"1.5", "usd", 15},
		{"1e3", "US", 1000},
		{"10", "EUR", 10},
		{"１２", "ÜSD", 12},
		{"12\x00", "US\xff", 12},
	} {
		f.Add(seed.amount, seed.currency, seed.n)
	}
	f.Fuzz(func(t *testing.T, amount, currency string, n int64) {
		m := money.Money{Amount: amount, Currency: currency}

		got, err := m.MinorUnits()
		canonical := amountRule.MatchString(amount)
		b, parsed := new(big.Int).SetString(amount, 10)
		fits := canonical && parsed && b.IsInt64()
		switch {
		case fits != (err == nil):
			t.Fatalf("MinorUnits(%q) = %d, %v", amount, got, err)
		case err == nil && (got != b.Int64() || money.New(got, currency) != m):
			t.Fatalf("MinorUnits(%q) = %d, which is not the same money", amount, got)
		case err != nil && !errors.Is(err, apierror.ErrInvalidRequest):
			t.Fatalf("MinorUnits error %v is not a validation error", err)
		}

		s := m.String()
		if canonical && currency == money.CurrencyUSD {
			back, ok := parseUSD(s)
			if !ok || back != amount {
				t.Fatalf("%q prints as %q, which reads back as %q", amount, s, back)
			}
		} else if !strings.Contains(s, amount) || !strings.Contains(s, currency) {
			t.Fatalf("%q %q prints as %q", amount, currency, s)
		}

		if utf8.ValidString(amount) && utf8.ValidString(currency) {
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var back money.Money
			if err := json.Unmarshal(data, &back); err != nil || back != m {
				t.Fatalf("%s reads back as %+v (%v)", data, back, err)
			}
		}

		u := money.USD(n)
		if got, err := u.MinorUnits(); n >= 0 && (err != nil || got != n) || n < 0 && err == nil {
			t.Fatalf("USD(%d).MinorUnits() = %d, %v", n, got, err)
		}
		if back, ok := parseUSD(u.String()); n >= 0 && (!ok || back != u.Amount) {
			t.Fatalf("USD(%d) prints as %q", n, u.String())
		}
	})
}
