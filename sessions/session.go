package sessions

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/money"
)

// Session is a running conversation of an agent in an environment (type
// "session"). Nullable fields of the wire read as their zero value: Title
// and DeploymentID "", Budget nil, ArchivedAt the zero time.
type Session struct {
	Type string `json:"type"`
	ID   string `json:"id"` // "sesn_…"
	// Agent is the agent as resolved when the session was created: a
	// snapshot that later agent versions do not change. Only its Tools and
	// MCPServers change, through Update.
	Agent         Agent  `json:"agent"`
	EnvironmentID string `json:"environment_id"`
	Status        Status `json:"status"`
	// Title is 1 to 500 characters, or "" when unset.
	Title    string            `json:"title,omitzero"`
	Metadata map[string]string `json:"metadata"`
	// Resources are the session's files, repositories and memory stores,
	// in attach order.
	Resources []Resource `json:"resources"`
	VaultIDs  []string   `json:"vault_ids"`
	// Budget is nil when the session is uncapped (never had a budget, or
	// had it removed).
	Budget *Budget `json:"budget"`
	// DeploymentID names the deployment whose run created the session; ""
	// for sessions created directly.
	DeploymentID       string              `json:"deployment_id,omitzero"`
	OutcomeEvaluations []OutcomeEvaluation `json:"outcome_evaluations"`
	Stats              Stats               `json:"stats"`
	Usage              Usage               `json:"usage"`
	// ArchivedAt is zero until the session is archived. Archived sessions
	// are read-only.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the session has been archived.
func (s *Session) Archived() bool { return !s.ArchivedAt.IsZero() }

type (
	plainSession           Session
	plainBudget            Budget
	plainUsage             Usage
	plainCacheCreation     CacheCreation
	plainServerToolUse     ServerToolUse
	plainStats             Stats
	plainOutcomeEvaluation OutcomeEvaluation
)

// MarshalJSON writes the session's wire object.
func (s Session) MarshalJSON() ([]byte, error) { return wire.Marshal(plainSession(s)) }

// UnmarshalJSON decodes the session's wire object, its resources into
// their variants.
func (s *Session) UnmarshalJSON(data []byte) error {
	*s = Session{}
	return wire.Unmarshal(data, (*plainSession)(s), unions)
}

// Status is a session's status. Values this SDK does not know are kept as
// they are.
type Status string

const (
	// StatusIdle: waiting for input (a user message, a tool confirmation,
	// a custom tool result). Sessions start idle.
	StatusIdle Status = "idle"
	// StatusRunning: a turn is executing.
	StatusRunning Status = "running"
	// StatusRescheduling: a transient error occurred; the platform retries
	// by itself.
	StatusRescheduling Status = "rescheduling"
	// StatusTerminated: ended for good, by an unrecoverable error or by
	// completion.
	StatusTerminated Status = "terminated"
)

// BudgetType is the kind of a budget. Values this SDK does not know are
// kept as they are.
type BudgetType string

// BudgetLimit is the only budget kind, a spending ceiling.
const BudgetLimit BudgetType = "limit"

// Budget caps what a session may spend, in list price (type "limit"). A
// session that reaches it stops with stop reason budget_reached; raising or
// removing the budget (Update) resumes it.
type Budget struct {
	// Type is BudgetLimit; "" is sent as BudgetLimit. A budget kind newer
	// than this SDK keeps its type here.
	Type BudgetType `json:"type"`
	// MaxListCost is the ceiling, at least 1 minor unit.
	MaxListCost money.Money `json:"max_list_cost"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Limit returns a budget capping spend at maxListCost.
func Limit(maxListCost money.Money) Budget {
	return Budget{Type: BudgetLimit, MaxListCost: maxListCost}
}

// MarshalJSON writes the budget's wire object, with the type filled in
// when it was left empty.
func (b Budget) MarshalJSON() ([]byte, error) {
	if b.Type == "" {
		b.Type = BudgetLimit
	}
	return wire.Marshal(plainBudget(b))
}

// UnmarshalJSON decodes the budget's wire object; a budget without a type
// reads as BudgetLimit, as it is sent.
func (b *Budget) UnmarshalJSON(data []byte) error {
	*b = Budget{}
	if err := wire.Unmarshal(data, (*plainBudget)(b)); err != nil {
		return err
	}
	if b.Type == "" {
		b.Type = BudgetLimit
	}
	return nil
}

// Usage is what a session has consumed so far.
type Usage struct {
	ActiveSeconds        float64       `json:"active_seconds"`
	CacheCreation        CacheCreation `json:"cache_creation"`
	CacheReadInputTokens int64         `json:"cache_read_input_tokens"`
	InputTokens          int64         `json:"input_tokens"`
	OutputTokens         int64         `json:"output_tokens"`
	// ListCost is the consumed cost at list price; a budget must stay
	// above it.
	ListCost      money.Money   `json:"list_cost"`
	ServerToolUse ServerToolUse `json:"server_tool_use"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the wire object.
func (u Usage) MarshalJSON() ([]byte, error) { return wire.Marshal(plainUsage(u)) }

// UnmarshalJSON decodes the wire object.
func (u *Usage) UnmarshalJSON(data []byte) error {
	*u = Usage{}
	return wire.Unmarshal(data, (*plainUsage)(u))
}

// CacheCreation counts input tokens written to the prompt cache, by TTL.
type CacheCreation struct {
	Ephemeral1hInputTokens int64 `json:"ephemeral_1h_input_tokens"`
	Ephemeral5mInputTokens int64 `json:"ephemeral_5m_input_tokens"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the wire object.
func (c CacheCreation) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCacheCreation(c)) }

// UnmarshalJSON decodes the wire object.
func (c *CacheCreation) UnmarshalJSON(data []byte) error {
	*c = CacheCreation{}
	return wire.Unmarshal(data, (*plainCacheCreation)(c))
}

// ServerToolUse counts calls of server-side tools.
type ServerToolUse struct {
	WebFetchRequests  int64 `json:"web_fetch_requests"`
	WebSearchRequests int64 `json:"web_search_requests"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the wire object.
func (u ServerToolUse) MarshalJSON() ([]byte, error) { return wire.Marshal(plainServerToolUse(u)) }

// UnmarshalJSON decodes the wire object.
func (u *ServerToolUse) UnmarshalJSON(data []byte) error {
	*u = ServerToolUse{}
	return wire.Unmarshal(data, (*plainServerToolUse)(u))
}

// Stats are a session's timings.
type Stats struct {
	ActiveSeconds   float64 `json:"active_seconds"`
	DurationSeconds float64 `json:"duration_seconds"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the wire object.
func (s Stats) MarshalJSON() ([]byte, error) { return wire.Marshal(plainStats(s)) }

// UnmarshalJSON decodes the wire object.
func (s *Stats) UnmarshalJSON(data []byte) error {
	*s = Stats{}
	return wire.Unmarshal(data, (*plainStats)(s))
}

// OutcomeEvaluation is one evaluation of an outcome defined with
// user.define_outcome (type "outcome_evaluation").
type OutcomeEvaluation struct {
	Type        string        `json:"type"`
	OutcomeID   string        `json:"outcome_id"` // "outc_…"
	Description string        `json:"description"`
	Explanation string        `json:"explanation"`
	Iteration   int           `json:"iteration"`
	Result      OutcomeResult `json:"result"`
	CompletedAt time.Time     `json:"completed_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the wire object.
func (o OutcomeEvaluation) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainOutcomeEvaluation(o))
}

// UnmarshalJSON decodes the wire object.
func (o *OutcomeEvaluation) UnmarshalJSON(data []byte) error {
	*o = OutcomeEvaluation{}
	return wire.Unmarshal(data, (*plainOutcomeEvaluation)(o))
}

// OutcomeResult is the verdict of an evaluation. Values this SDK does not
// know are kept as they are.
type OutcomeResult string

// Evaluation results.
const (
	OutcomeSatisfied            OutcomeResult = "satisfied"
	OutcomeNeedsRevision        OutcomeResult = "needs_revision"
	OutcomeMaxIterationsReached OutcomeResult = "max_iterations_reached"
	OutcomeFailed               OutcomeResult = "failed"
	OutcomeInterrupted          OutcomeResult = "interrupted"
)
