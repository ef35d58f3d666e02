package sessions

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Money and budgets (docs/managed-agents-wire.md 3.1). Sessions and
// deployments carry the same budget object; a deployment copies its budget
// onto every session it creates.

// pricedModels are the models with a public list price in the reference
// server (**choice**: the three model ids the API documents). A budget needs every model
// a session can run to be one of them.
var pricedModels = []string{"vendor-haiku-5-5", "vendor-sonnet-5-5", "vendor-opus-5-5"}

// currencyUSD is the only currency the API supports.
const currencyUSD = "USD"

// maxAmountDigits keeps an amount within int64 (**choice**,
// docs/managed-agents-wire.md 3.1).
const maxAmountDigits = 18

var amountPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// budget is a resolved {type: limit, max_list_cost}: the ceiling in USD
// minor units.
type budget struct {
	maxListCost int64
}

type moneyJSON struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

func usd(minorUnits int64) moneyJSON {
	return moneyJSON{Amount: strconv.FormatInt(minorUnits, 10), Currency: currencyUSD}
}

type budgetJSON struct {
	Type        string    `json:"type"`
	MaxListCost moneyJSON `json:"max_list_cost"`
}

// view renders b, or null for an uncapped session or deployment.
func (b *budget) view() *budgetJSON {
	if b == nil {
		return nil
	}
	return &budgetJSON{Type: "limit", MaxListCost: usd(b.maxListCost)}
}

type budgetBody struct {
	Type        kit.Optional[string]          `json:"type"`
	MaxListCost kit.Optional[json.RawMessage] `json:"max_list_cost"`
}

type moneyBody struct {
	Amount   kit.Optional[string] `json:"amount"`
	Currency kit.Optional[string] `json:"currency"`
}

// parseBudget reads a non-null budget object at path for a new session or
// deployment: nothing is consumed yet, and a zero ceiling could never run
// a turn, so its amount must be at least 1 (**choice**,
// docs/managed-agents-wire.md 3.1).
func parseBudget(path string, raw json.RawMessage) (*budget, error) {
	return parseBudgetMin(path, raw, 1)
}

// parseBudgetMin reads a non-null budget object at path whose amount is at
// least least. Update Session takes any amount, "0" included, and compares
// it with the consumed cost instead.
func parseBudgetMin(path string, raw json.RawMessage, least int64) (*budget, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return nil, err
	}
	if typ != "limit" {
		return nil, kit.BadType(path, "limit")
	}
	var body budgetBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	costPath := kit.JoinPath(path, "max_list_cost")
	if err := kit.Required(costPath, body.MaxListCost); err != nil {
		return nil, err
	}
	var m moneyBody
	if err := kit.DecodeAt(costPath, body.MaxListCost.Value, &m); err != nil {
		return nil, err
	}
	amountPath := kit.JoinPath(costPath, "amount")
	if err := kit.Required(amountPath, m.Amount); err != nil {
		return nil, err
	}
	amount := m.Amount.Value
	if !amountPattern.MatchString(amount) {
		return nil, kit.InvalidField(amountPath, "must be a decimal integer string without leading zeros")
	}
	if len(amount) > maxAmountDigits {
		return nil, kit.InvalidField(amountPath, "must have at most %d digits", maxAmountDigits)
	}
	n, err := strconv.ParseInt(amount, 10, 64)
	if err != nil {
		return nil, kit.InvalidField(amountPath, "must have at most %d digits", maxAmountDigits)
	}
	if n < least {
		return nil, kit.InvalidField(amountPath, "must be at least %d", least)
	}
	currencyPath := kit.JoinPath(costPath, "currency")
	if err := kit.Required(currencyPath, m.Currency); err != nil {
		return nil, err
	}
	if err := kit.OneOf(currencyPath, m.Currency.Value, currencyUSD); err != nil {
		return nil, err
	}
	return &budget{maxListCost: n}, nil
}

// checkBudgetable reports the first model v can run that has no list
// price: a budget could not be enforced on it (docs/managed-agents-wire.md
// 6.6, 8.2).
func checkBudgetable(v *agents.Version) error {
	for _, id := range v.ModelIDs() {
		if !slices.Contains(pricedModels, id) {
			return kit.InvalidField("budget", "model_not_budgetable: model `%s` has no public list price", id)
		}
	}
	return nil
}
