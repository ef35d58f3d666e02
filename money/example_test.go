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

// Money read from a response is checked when it is used: MinorUnits and
// Validate report an amount that is not a valid decimal integer.
func ExampleMoney_Validate() {
	var m money.Money
	if err := json.Unmarshal([]byte(`{"amount":"12.50","currency":"USD"}`), &m); err != nil {
		panic(err)
	}
	fmt.Println(m.Validate("budget.max_list_cost"))

	if _, err := m.MinorUnits(); err != nil {
		fmt.Println("not a whole number of cents")
	}

	// Other well-formed currency codes pass through for the server to judge.
	eur := money.New(1000, "EUR")
	fmt.Println(eur, eur.Validate("price"))
	// Output:
	// agentplatform: invalid parameter budget.max_list_cost.amount: must be a non-negative decimal integer of minor units
	// not a whole number of cents
	// 1000 minor units of EUR <nil>
}
