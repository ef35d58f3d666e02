// Package money is the API's money object: an amount of minor units written
// as a decimal integer string, and an ISO 4217 currency code.
//
//	budget := money.USD(2500) // {"amount": "2500", "currency": "USD"}: 25.00 USD
//	cents, err := budget.MinorUnits()
//
// The amount travels as a string so that no value is ever rounded through a
// float. Only USD is accepted by the platform today; other well-formed codes
// are passed through for the server to judge.
package money
