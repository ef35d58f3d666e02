package money_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/money"
)

// Amounts are whole minor units (cents), so no value is rounded through a
// float; the JSON amount is a string for the same reason.
func ExampleUSD() {
	budget := money.USD(2500)
	fmt.Println(budget)

	b, _ := json.Marshal(budget)
	fmt.Println(string(b))

	cents, err := budget.MinorUnits()
	fmt.Println(cents, err)
	// Output:
	// 25.00 USD
	// {"amount":"2500","currency":"USD"}
	// 2500 <nil>
}

// Money read from a response is checked when it is used: MinorUnits
// reports an amount that is not a whole number of minor units. Requests
// that carry money (a budget) are checked before they are sent.
func ExampleMoney_MinorUnits() {
	var m money.Money
	if err := json.Unmarshal([]byte(`{"amount":"12.50","currency":"USD"}`), &m); err != nil {
		panic(err)
	}
	_, err := m.MinorUnits()
	fmt.Println(err)

	// Other currencies pass through for the server to judge.
	eur := money.New(1000, "EUR")
	cents, err := eur.MinorUnits()
	fmt.Println(eur, cents, err)
	// Output:
	// agentplatform: invalid parameter amount: must be a non-negative decimal integer of minor units
	// 1000 minor units of EUR 1000 <nil>
}
