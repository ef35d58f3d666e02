package refserver_test

import (
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// budget_not_raised compares the new cap with the consumed list cost as the
// session shows it (usage.list_cost, whole cents), not with the exact cost
// behind it (docs/managed-agents-wire.md 6.6).

func budgetUpdate(amount string) string {
	return `{"budget":{"type":"limit","max_list_cost":{"amount":"` + amount + `","currency":"USD"}}}`
}

func TestSessionUpdateBudgetComparesWithShownCost(t *testing.T) {
	f := newEvFixture(t)
	agent := f.agentWith(t, "spender", "vendor-sonnet-5-5", "")
	sid := f.sessionOf(t, agent, `,"budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}`)
	// 1000 input and 1400 output tokens on sonnet: 1.6 cents exactly,
	// shown as 2.
	f.script(t, sid, []rs.Step{rs.Say("spent", rs.Tokens(1000, 1400))})
	f.post(t, sid, msgEvent("go"))
	path := sessionsPath + "/" + sid
	shown := wantOK(t, f.ma(t, "GET", path, ""))["usage"].(map[string]any)["list_cost"].(map[string]any)["amount"].(string)
	if shown != "2" {
		t.Fatalf("list_cost %q", shown)
	}
	notRaised := "budget: budget_not_raised: max_list_cost must be above the consumed list cost 2"
	for _, amount := range []string{shown, "1", "0"} {
		wantInvalid(t, f.ma(t, "POST", path, budgetUpdate(amount)), notRaised)
	}
	got := wantOK(t, f.ma(t, "POST", path, budgetUpdate("3")))
	if mustMarshal(got["budget"]) != `{"max_list_cost":{"amount":"3","currency":"USD"},"type":"limit"}` {
		t.Fatalf("budget %v", got["budget"])
	}
}

// "0" is an amount like any other: on a session that consumed nothing it
// is still at or below the consumed cost. Creating a budget of "0" is
// refused too (nothing could ever run under it).
func TestSessionUpdateBudgetZero(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionOf(t, f.agent, `,"budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}`)
	path := sessionsPath + "/" + sid
	wantInvalid(t, f.ma(t, "POST", path, budgetUpdate("0")),
		"budget: budget_not_raised: max_list_cost must be above the consumed list cost 0")
	wantOK(t, f.ma(t, "POST", path, budgetUpdate("1")))
	// Still a well-formed amount: leading zeros are not.
	wantInvalid(t, f.ma(t, "POST", path, budgetUpdate("00")),
		"budget.max_list_cost.amount: must be a decimal integer string without leading zeros")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"budget":{"type":"limit","max_list_cost":{"amount":"0","currency":"USD"}}`)),
		"budget.max_list_cost.amount: must be at least 1")
}
