package sessions

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The unions of idle and error events (docs/session-events-wire.md 4.9,
// 4.11): why a session stopped, and what a failure means for the turn.

// StopReason is why a session or thread went idle: StopEndTurn,
// StopRequiresAction, StopRetriesExhausted, StopBudgetReached, StopRefusal,
// or UnknownStopReason.
type StopReason interface{ isStopReason() }

// StopEndTurn means the turn finished, or was interrupted (type
// "end_turn").
type StopEndTurn struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// StopRequiresAction means the session is waiting on the client (type
// "requires_action"): answer every tool use named in EventIDs.
type StopRequiresAction struct {
	EventIDs []string `json:"event_ids"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// StopRetriesExhausted means the turn died after a session.error that ran
// out of retries; the last input was dropped (type "retries_exhausted").
type StopRetriesExhausted struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// StopBudgetReached means the session paused at its budget; raise or remove
// the budget with Update to resume (type "budget_reached").
type StopBudgetReached struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// StopRefusal means the model's response was refused; StopDetails says why
// (type "refusal").
type StopRefusal struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownStopReason is a stop reason this SDK does not know, as received.
type UnknownStopReason struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownStopReason) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

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
	Category    string `json:"category,omitzero"`
	Explanation string `json:"explanation,omitzero"` // "" when null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownStopDetails is a kind this SDK does not know, as received.
type UnknownStopDetails struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownStopDetails) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (RefusalDetails) isStopDetails()     {}
func (UnknownStopDetails) isStopDetails() {}

// SessionError is the error of a session.error event.
type SessionError struct {
	// Type is the error's kind: "model_overloaded_error",
	// "mcp_connection_failed_error", … or a value this SDK does not know
	// ("unknown_error" is the platform's own fallback). The turn-limit kinds
	// "tool_use_limit_reached_error" (too many tool calls cut off before
	// they were complete) and "compaction_limit_reached_error" (the context
	// compacted too many times in a row without progress) are not request
	// failures: they come with retry status exhausted, and the next user
	// message starts a new turn.
	Type    string `json:"type"`
	Message string `json:"message"`
	// RetryStatus says what follows: RetryRetrying, RetryExhausted,
	// RetryTerminal, or UnknownRetryStatus.
	RetryStatus RetryStatus `json:"retry_status"`
	// Details holds the keys of the kind: MCPErrorDetails,
	// CredentialErrorDetails or RepositoryErrorDetails; nil for kinds
	// without any; UnknownErrorDetails (the whole error object) for a kind
	// this SDK does not know. The keys of a known kind are not in Extra.
	Details ErrorDetails `json:"-"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RetryStatus says whether a failed turn goes on.
type RetryStatus interface{ isRetryStatus() }

// RetryRetrying means the server retries by itself (type "retrying").
type RetryRetrying struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RetryExhausted means the turn is dead; send a new prompt (type
// "exhausted").
type RetryExhausted struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RetryTerminal means the session cannot continue (type "terminal").
type RetryTerminal struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownRetryStatus is a status this SDK does not know, as received.
type UnknownRetryStatus struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownRetryStatus) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (RetryRetrying) isRetryStatus()      {}
func (RetryExhausted) isRetryStatus()     {}
func (RetryTerminal) isRetryStatus()      {}
func (UnknownRetryStatus) isRetryStatus() {}

// ErrorDetails are the keys particular to a kind of session error. They
// are members of the error object itself, so they are read and written
// with it (SessionError).
type ErrorDetails interface{ isErrorDetails() }

// MCPErrorDetails are the details of mcp_connection_failed_error and
// mcp_authentication_failed_error.
type MCPErrorDetails struct {
	MCPServerName string `json:"mcp_server_name,omitzero"`
}

// CredentialErrorDetails are the details of
// credential_host_unreachable_error.
type CredentialErrorDetails struct {
	CredentialID string `json:"credential_id,omitzero"`
	VaultID      string `json:"vault_id,omitzero"`
}

// RepositoryErrorDetails are the details of
// repository_authentication_error, repository_forbidden_error,
// repository_not_found_error, repository_checkout_error and
// repository_clone_error.
type RepositoryErrorDetails struct {
	RepositoryURL string `json:"repository_url,omitzero"` // "" when null
}

// UnknownErrorDetails is the whole error object of a kind this SDK does not
// know, as SessionError marshals it. It is a view of the error: its
// members are also in SessionError's fields and Extra, which are what is
// written back.
type UnknownErrorDetails struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownErrorDetails) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (MCPErrorDetails) isErrorDetails()        {}
func (CredentialErrorDetails) isErrorDetails() {}
func (RepositoryErrorDetails) isErrorDetails() {}
func (UnknownErrorDetails) isErrorDetails()    {}

type (
	plainStopEndTurn          StopEndTurn
	plainStopRequiresAction   StopRequiresAction
	plainStopRetriesExhausted StopRetriesExhausted
	plainStopBudgetReached    StopBudgetReached
	plainStopRefusal          StopRefusal
	plainRefusalDetails       RefusalDetails
	plainRetryRetrying        RetryRetrying
	plainRetryExhausted       RetryExhausted
	plainRetryTerminal        RetryTerminal
	plainSessionError         SessionError
)

// MarshalJSON writes the variant's wire object, "type" first.
func (v StopEndTurn) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("end_turn", plainStopEndTurn(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *StopEndTurn) UnmarshalJSON(data []byte) error {
	*v = StopEndTurn{}
	return decodeVariant(data, (*plainStopEndTurn)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v StopRequiresAction) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("requires_action", plainStopRequiresAction(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *StopRequiresAction) UnmarshalJSON(data []byte) error {
	*v = StopRequiresAction{}
	return decodeVariant(data, (*plainStopRequiresAction)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v StopRetriesExhausted) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("retries_exhausted", plainStopRetriesExhausted(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *StopRetriesExhausted) UnmarshalJSON(data []byte) error {
	*v = StopRetriesExhausted{}
	return decodeVariant(data, (*plainStopRetriesExhausted)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v StopBudgetReached) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("budget_reached", plainStopBudgetReached(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *StopBudgetReached) UnmarshalJSON(data []byte) error {
	*v = StopBudgetReached{}
	return decodeVariant(data, (*plainStopBudgetReached)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v StopRefusal) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("refusal", plainStopRefusal(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *StopRefusal) UnmarshalJSON(data []byte) error {
	*v = StopRefusal{}
	return decodeVariant(data, (*plainStopRefusal)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v RefusalDetails) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("refusal", plainRefusalDetails(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *RefusalDetails) UnmarshalJSON(data []byte) error {
	*v = RefusalDetails{}
	return decodeVariant(data, (*plainRefusalDetails)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v RetryRetrying) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("retrying", plainRetryRetrying(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *RetryRetrying) UnmarshalJSON(data []byte) error {
	*v = RetryRetrying{}
	return decodeVariant(data, (*plainRetryRetrying)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v RetryExhausted) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("exhausted", plainRetryExhausted(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *RetryExhausted) UnmarshalJSON(data []byte) error {
	*v = RetryExhausted{}
	return decodeVariant(data, (*plainRetryExhausted)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v RetryTerminal) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("terminal", plainRetryTerminal(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *RetryTerminal) UnmarshalJSON(data []byte) error {
	*v = RetryTerminal{}
	return decodeVariant(data, (*plainRetryTerminal)(v))
}

// errorDetailsOf returns the zero details of a known kind of session error
// (nil for the kinds without any) and whether the kind is known.
func errorDetailsOf(typ string) (ErrorDetails, bool) {
	switch typ {
	case "", "unknown_error", "model_overloaded_error", "model_rate_limited_error", "model_request_failed_error", "billing_error",
		"tool_use_limit_reached_error", "compaction_limit_reached_error":
		return nil, true
	case "mcp_connection_failed_error", "mcp_authentication_failed_error":
		return MCPErrorDetails{}, true
	case "credential_host_unreachable_error":
		return CredentialErrorDetails{}, true
	case "repository_authentication_error", "repository_forbidden_error", "repository_not_found_error",
		"repository_checkout_error", "repository_clone_error":
		return RepositoryErrorDetails{}, true
	}
	return nil, false
}

// MarshalJSON writes the error object, the keys of Details among its
// members.
func (e SessionError) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainSessionError(e))
	if err != nil {
		return nil, err
	}
	var details []byte
	switch d := e.Details.(type) {
	case MCPErrorDetails, CredentialErrorDetails, RepositoryErrorDetails:
		if details, err = wire.Marshal(d); err != nil {
			return nil, err
		}
	}
	if len(details) <= 2 { // none, or {}
		return body, nil
	}
	out := append(bytes.TrimSuffix(body, []byte("}")), ',')
	return append(out, details[1:]...), nil
}

// UnmarshalJSON decodes the error object, the keys of its kind into
// Details.
func (e *SessionError) UnmarshalJSON(data []byte) error {
	*e = SessionError{}
	if err := wire.Unmarshal(data, (*plainSessionError)(e), unions); err != nil {
		return err
	}
	details, known := errorDetailsOf(e.Type)
	var keys []string
	switch details.(type) {
	case MCPErrorDetails:
		var d MCPErrorDetails
		err := wire.Unmarshal(data, &d)
		details, keys = d, []string{"mcp_server_name"}
		if err != nil {
			return err
		}
	case CredentialErrorDetails:
		var d CredentialErrorDetails
		err := wire.Unmarshal(data, &d)
		details, keys = d, []string{"credential_id", "vault_id"}
		if err != nil {
			return err
		}
	case RepositoryErrorDetails:
		var d RepositoryErrorDetails
		err := wire.Unmarshal(data, &d)
		details, keys = d, []string{"repository_url"}
		if err != nil {
			return err
		}
	}
	for _, k := range keys {
		delete(e.Extra, k)
	}
	if len(e.Extra) == 0 {
		e.Extra = nil
	}
	if !known {
		// The view is the error as it marshals, so that it survives a
		// round trip unchanged.
		whole, err := e.MarshalJSON()
		if err != nil {
			return err
		}
		details = UnknownErrorDetails{Type: e.Type, JSON: canonical(whole)}
	}
	e.Details = details
	return nil
}

func decodeStopReason(typ string, obj []byte) (StopReason, error) {
	switch typ {
	case "end_turn":
		p, err := newVariant[plainStopEndTurn](obj)
		if err != nil {
			return nil, err
		}
		return StopEndTurn(*p), nil
	case "requires_action":
		p, err := newVariant[plainStopRequiresAction](obj)
		if err != nil {
			return nil, err
		}
		return StopRequiresAction(*p), nil
	case "retries_exhausted":
		p, err := newVariant[plainStopRetriesExhausted](obj)
		if err != nil {
			return nil, err
		}
		return StopRetriesExhausted(*p), nil
	case "budget_reached":
		p, err := newVariant[plainStopBudgetReached](obj)
		if err != nil {
			return nil, err
		}
		return StopBudgetReached(*p), nil
	case "refusal":
		p, err := newVariant[plainStopRefusal](obj)
		if err != nil {
			return nil, err
		}
		return StopRefusal(*p), nil
	}
	return UnknownStopReason{Type: typ, JSON: canonical(obj)}, nil
}

func decodeStopDetails(typ string, obj []byte) (StopDetails, error) {
	if typ == "refusal" {
		p, err := newVariant[plainRefusalDetails](obj)
		if err != nil {
			return nil, err
		}
		return RefusalDetails(*p), nil
	}
	return UnknownStopDetails{Type: typ, JSON: canonical(obj)}, nil
}

func decodeRetryStatus(typ string, obj []byte) (RetryStatus, error) {
	switch typ {
	case "retrying":
		p, err := newVariant[plainRetryRetrying](obj)
		if err != nil {
			return nil, err
		}
		return RetryRetrying(*p), nil
	case "exhausted":
		p, err := newVariant[plainRetryExhausted](obj)
		if err != nil {
			return nil, err
		}
		return RetryExhausted(*p), nil
	case "terminal":
		p, err := newVariant[plainRetryTerminal](obj)
		if err != nil {
			return nil, err
		}
		return RetryTerminal(*p), nil
	}
	return UnknownRetryStatus{Type: typ, JSON: canonical(obj)}, nil
}
