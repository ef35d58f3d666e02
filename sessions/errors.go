package sessions

import (
	"errors"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Reasons the API gives for refusing a budget (docs/managed-agents-wire.md
// 6.6).
const (
	// ReasonBudgetCreateOnly: a budget can only be set when the session is
	// created; one created without a budget, or whose budget was removed,
	// cannot get one.
	ReasonBudgetCreateOnly = "budget_create_only"
	// ReasonBudgetNotRaised: the new ceiling is at or below the cost the
	// session has already consumed.
	ReasonBudgetNotRaised = "budget_not_raised"
	// ReasonModelNotBudgetable: a model the session can run has no public
	// list price, so no budget can track it.
	ReasonModelNotBudgetable = "model_not_budgetable"
)

// RejectionReason returns the reason token of a refused budget, or false
// when err is not such a refusal. The API sends the reason as the first
// word of the rule, after the field name ("budget: budget_create_only: …");
// an error whose type is the reason itself is recognised too.
//
//	if reason, ok := sessions.RejectionReason(err); ok && reason == sessions.ReasonBudgetNotRaised { … }
func RejectionReason(err error) (string, bool) {
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) {
		return "", false
	}
	if isReason(string(apiErr.Type)) {
		return string(apiErr.Type), true
	}
	_, rule, ok := strings.Cut(apiErr.Message, ": ")
	if !ok {
		return "", false
	}
	reason, _, _ := strings.Cut(rule, ":")
	if isReason(reason) {
		return reason, true
	}
	return "", false
}

func isReason(s string) bool {
	switch s {
	case ReasonBudgetCreateOnly, ReasonBudgetNotRaised, ReasonModelNotBudgetable:
		return true
	}
	return false
}
