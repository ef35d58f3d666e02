package sessions

import (
	"errors"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// BudgetRefusal is why the API refused a session's budget
// (docs/managed-agents-wire.md 6.6). Each value is an error that
// errors.Is finds in the error of a Create or Update refused for that
// reason; the error still unwraps to the API's *apierror.Error:
//
//	_, err := client.Sessions.Update(ctx, id, sessions.UpdateParams{Budget: param.Value(b)})
//	if errors.Is(err, sessions.ErrBudgetNotRaised) { … }
type BudgetRefusal string

const (
	// ErrBudgetCreateOnly: a budget can only be set when the session is
	// created; one created without a budget, or whose budget was removed,
	// cannot get one.
	ErrBudgetCreateOnly BudgetRefusal = "budget_create_only"
	// ErrBudgetNotRaised: the new ceiling is at or below the cost the
	// session has already consumed.
	ErrBudgetNotRaised BudgetRefusal = "budget_not_raised"
	// ErrModelNotBudgetable: a model the session can run has no public
	// list price, so no budget can track it.
	ErrModelNotBudgetable BudgetRefusal = "model_not_budgetable"
)

func (r BudgetRefusal) Error() string { return "sessions: budget refused: " + string(r) }

// refusedBudget is the error of a call refused for its budget: the API's
// error, which it reads as, and the reason.
type refusedBudget struct {
	api    *apierror.Error
	reason BudgetRefusal
}

func (e *refusedBudget) Error() string   { return e.api.Error() }
func (e *refusedBudget) Unwrap() []error { return []error{e.api, e.reason} }

// budgetError returns err with the reason of a refused budget attached,
// or err itself. The API sends the reason as the first word of the rule,
// after the field name ("budget: budget_create_only: …"); an error whose
// type is the reason itself is recognised too.
func budgetError(err error) error {
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	reason := BudgetRefusal(apiErr.Type)
	if !reason.known() {
		_, rule, _ := strings.Cut(apiErr.Message, ": ")
		word, _, _ := strings.Cut(rule, ":")
		if reason = BudgetRefusal(word); !reason.known() {
			return err
		}
	}
	return &refusedBudget{api: apiErr, reason: reason}
}

func (r BudgetRefusal) known() bool {
	switch r {
	case ErrBudgetCreateOnly, ErrBudgetNotRaised, ErrModelNotBudgetable:
		return true
	}
	return false
}
