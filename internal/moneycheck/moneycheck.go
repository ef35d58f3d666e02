// Package moneycheck holds the local rules for the API's money objects, for
// the request types that carry one (a session's or a deployment's budget).
// It is internal so that checking money before sending is the SDK's job,
// not a method of money.Money that callers would have to remember; money
// uses AmountRule itself to read amounts.
package moneycheck

import (
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Amount checks a money object given as its members: amount, a canonical
// non-negative decimal integer of minor units, and currency, an uppercase
// three-letter ISO 4217 code (whether the platform accepts it is the
// server's to say). A broken rule is reported for field's member, for
// example "budget.max_list_cost.amount" for field "budget.max_list_cost".
func Amount(field, amount, currency string) error {
	if rule := AmountRule(amount); rule != "" {
		return &apierror.ValidationError{Field: join(field, "amount"), Rule: rule}
	}
	if !isCurrencyCode(currency) {
		return &apierror.ValidationError{Field: join(field, "currency"), Rule: "must be an uppercase ISO 4217 code such as USD"}
	}
	return nil
}

// maxCeilingDigits bounds a ceiling's amount: 18 digits always fit an
// int64 of minor units.
const maxCeilingDigits = 18

// Ceiling checks a spending ceiling (a budget's max_list_cost) given as its
// members: a valid money object, at least 1 minor unit (a zero ceiling
// could never run) and at most 18 digits.
func Ceiling(field, amount, currency string) error {
	if err := Amount(field, amount, currency); err != nil {
		return err
	}
	if amount == "0" {
		return &apierror.ValidationError{Field: join(field, "amount"), Rule: "must be at least 1"}
	}
	if len(amount) > maxCeilingDigits {
		return &apierror.ValidationError{Field: join(field, "amount"), Rule: "must have at most " + strconv.Itoa(maxCeilingDigits) + " digits"}
	}
	return nil
}

// AmountRule returns the rule s breaks as an amount of minor units, or ""
// when it is a valid one: digits only, at least one, and no leading zero
// unless it is "0". Its size is not limited.
func AmountRule(s string) string {
	if s == "" {
		return "must not be empty"
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "must be a non-negative decimal integer of minor units"
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return "must not have leading zeros"
	}
	return ""
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func join(prefix, field string) string {
	if prefix == "" {
		return field
	}
	return prefix + "." + field
}
