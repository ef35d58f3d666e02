package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// The unions of idle and error events (docs/session-events-wire.md 4.9,
// 4.11): why a session stopped, and what a failure means for the turn.

// StopReason is why a session or thread went idle: StopEndTurn,
// StopRequiresAction, StopRetriesExhausted, StopBudgetReached, StopRefusal,
// or UnknownStopReason.
type StopReason interface{ isStopReason() }

// StopEndTurn means the turn finished, or was interrupted (type
// "end_turn").
type StopEndTurn struct{}

// StopRequiresAction means the session is waiting on the client (type
// "requires_action"): answer every tool use named in EventIDs.
type StopRequiresAction struct {
	EventIDs []string
}

// StopRetriesExhausted means the turn died after a session.error that ran
// out of retries; the last input was dropped (type "retries_exhausted").
type StopRetriesExhausted struct{}

// StopBudgetReached means the session paused at its budget; raise or remove
// the budget with Update to resume (type "budget_reached").
type StopBudgetReached struct{}

// StopRefusal means the model's response was refused; StopDetails says why
// (type "refusal").
type StopRefusal struct{}

// UnknownStopReason is a stop reason this SDK does not know, as received.
type UnknownStopReason struct{ union.Raw }

func (StopEndTurn) isStopReason()          {}
func (StopRequiresAction) isStopReason()   {}
func (StopRetriesExhausted) isStopReason() {}
func (StopBudgetReached) isStopReason()    {}
func (StopRefusal) isStopReason()          {}
func (UnknownStopReason) isStopReason()    {}

// StopDetails explains a stop: RefusalDetails or UnknownStopDetails.
type StopDetails interface{ isStopDetails() }

// RefusalDetails explains a refusal (type "refusal").
type RefusalDetails struct {
	// Category is "cyber", "bio", "frontier_llm", "reasoning_extraction",
	// "general_harms", another value, or "" when null.
	Category    string
	Explanation string // "" when null
}

// UnknownStopDetails is a kind this SDK does not know, as received.
type UnknownStopDetails struct{ union.Raw }

func (RefusalDetails) isStopDetails()     {}
func (UnknownStopDetails) isStopDetails() {}

// SessionError is the error of a session.error event.
type SessionError struct {
	// Type is the error's kind: "model_overloaded_error",
	// "mcp_connection_failed_error", … or a value this SDK does not know
	// ("unknown_error" is the platform's own fallback).
	Type    string
	Message string
	// RetryStatus says what follows: RetryRetrying, RetryExhausted,
	// RetryTerminal, or UnknownRetryStatus.
	RetryStatus RetryStatus
	// Details holds the keys of the kind: MCPErrorDetails,
	// CredentialErrorDetails or RepositoryErrorDetails; nil for kinds
	// without any; UnknownErrorDetails (the whole error object) for a kind
	// this SDK does not know.
	Details ErrorDetails
}

// RetryStatus says whether a failed turn goes on.
type RetryStatus interface{ isRetryStatus() }

// RetryRetrying means the server retries by itself (type "retrying").
type RetryRetrying struct{}

// RetryExhausted means the turn is dead; send a new prompt (type
// "exhausted").
type RetryExhausted struct{}

// RetryTerminal means the session cannot continue (type "terminal").
type RetryTerminal struct{}

// UnknownRetryStatus is a status this SDK does not know, as received.
type UnknownRetryStatus struct{ union.Raw }

func (RetryRetrying) isRetryStatus()      {}
func (RetryExhausted) isRetryStatus()     {}
func (RetryTerminal) isRetryStatus()      {}
func (UnknownRetryStatus) isRetryStatus() {}

// ErrorDetails are the keys particular to a kind of session error.
type ErrorDetails interface{ isErrorDetails() }

// MCPErrorDetails are the details of mcp_connection_failed_error and
// mcp_authentication_failed_error.
type MCPErrorDetails struct{ MCPServerName string }

// CredentialErrorDetails are the details of
// credential_host_unreachable_error.
type CredentialErrorDetails struct{ CredentialID, VaultID string }

// RepositoryErrorDetails are the details of
// repository_authentication_error, repository_forbidden_error,
// repository_not_found_error, repository_checkout_error and
// repository_clone_error.
type RepositoryErrorDetails struct {
	RepositoryURL string // "" when null
}

// UnknownErrorDetails is the whole error object of a kind this SDK does not
// know.
type UnknownErrorDetails struct{ union.Raw }

func (MCPErrorDetails) isErrorDetails()        {}
func (CredentialErrorDetails) isErrorDetails() {}
func (RepositoryErrorDetails) isErrorDetails() {}
func (UnknownErrorDetails) isErrorDetails()    {}

func (r *jsonReader) stopReason() StopReason {
	if r.null() {
		return nil
	}
	switch typ := r.typeOf(); typ {
	case "end_turn":
		r.skip()
		return StopEndTurn{}
	case "requires_action":
		var s StopRequiresAction
		r.object(func(key string) {
			if key == "event_ids" {
				s.EventIDs = r.stringList()
			} else {
				r.skip()
			}
		})
		return s
	case "retries_exhausted":
		r.skip()
		return StopRetriesExhausted{}
	case "budget_reached":
		r.skip()
		return StopBudgetReached{}
	case "refusal":
		r.skip()
		return StopRefusal{}
	default:
		return UnknownStopReason{r.rawUnion(typ)}
	}
}

func (r *jsonReader) stopDetails() StopDetails {
	if r.null() {
		return nil
	}
	typ := r.typeOf()
	if typ != "refusal" {
		return UnknownStopDetails{r.rawUnion(typ)}
	}
	var d RefusalDetails
	r.object(func(key string) {
		switch key {
		case "category":
			d.Category = r.str()
		case "explanation":
			d.Explanation = r.str()
		default:
			r.skip()
		}
	})
	return d
}

// stringList reads an array of strings; null reads as nil.
func (r *jsonReader) stringList() []string {
	out := []string{}
	if !r.array(func() { out = append(out, r.str()) }) {
		return nil
	}
	return out
}

func (r *jsonReader) sessionError() SessionError {
	typ := r.typeOf()
	var e SessionError
	var mcp MCPErrorDetails
	var cred CredentialErrorDetails
	var repo RepositoryErrorDetails
	r.peek()
	start := r.i
	r.object(func(key string) {
		switch key {
		case "type":
			e.Type = r.str()
		case "message":
			e.Message = r.str()
		case "retry_status":
			e.RetryStatus = r.retryStatus()
		case "mcp_server_name":
			mcp.MCPServerName = r.str()
		case "credential_id":
			cred.CredentialID = r.str()
		case "vault_id":
			cred.VaultID = r.str()
		case "repository_url":
			repo.RepositoryURL = r.str()
		default:
			r.skip()
		}
	})
	switch typ {
	case "unknown_error", "model_overloaded_error", "model_rate_limited_error", "model_request_failed_error", "billing_error":
	case "mcp_connection_failed_error", "mcp_authentication_failed_error":
		e.Details = mcp
	case "credential_host_unreachable_error":
		e.Details = cred
	case "repository_authentication_error", "repository_forbidden_error", "repository_not_found_error",
		"repository_checkout_error", "repository_clone_error":
		e.Details = repo
	default:
		if r.err == nil {
			e.Details = UnknownErrorDetails{union.Raw{Type: typ, JSON: json.RawMessage(r.s[start:r.i])}}
		}
	}
	return e
}

func (r *jsonReader) retryStatus() RetryStatus {
	if r.null() {
		return nil
	}
	switch typ := r.typeOf(); typ {
	case "retrying":
		r.skip()
		return RetryRetrying{}
	case "exhausted":
		r.skip()
		return RetryExhausted{}
	case "terminal":
		r.skip()
		return RetryTerminal{}
	default:
		return UnknownRetryStatus{r.rawUnion(typ)}
	}
}
