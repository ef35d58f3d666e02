package sessions

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/union"
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
	Title    string            `json:"title"`
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
	DeploymentID       string              `json:"deployment_id"`
	OutcomeEvaluations []OutcomeEvaluation `json:"outcome_evaluations"`
	Stats              Stats               `json:"stats"`
	Usage              Usage               `json:"usage"`
	// ArchivedAt is zero until the session is archived. Archived sessions
	// are read-only.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// Archived reports whether the session has been archived.
func (s *Session) Archived() bool { return !s.ArchivedAt.IsZero() }

// UnmarshalJSON decodes the resources into their variants.
func (s *Session) UnmarshalJSON(data []byte) error {
	type plain Session
	var w struct {
		plain
		Resources json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*s = Session(w.plain)
	var err error
	if s.Resources, err = decodeList(w.Resources, decodeResource); err != nil {
		return fmt.Errorf("resources: %w", err)
	}
	return nil
}

// decodeList decodes a union array; a missing key decodes as nil.
func decodeList[T any](data []byte, decode func([]byte) (T, error)) ([]T, error) {
	if len(data) == 0 {
		return nil, nil
	}
	return union.DecodeSlice(data, decode)
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

// BudgetLimit is the type of the only budget kind, a spending ceiling.
const BudgetLimit = "limit"

// Budget caps what a session may spend, in list price (type "limit"). A
// session that reaches it stops with stop reason budget_reached; raising or
// removing the budget (Update) resumes it.
type Budget struct {
	// Type is "limit"; "" is sent as "limit". A budget kind newer than this
	// SDK keeps its type here.
	Type string `json:"type"`
	// MaxListCost is the ceiling, at least 1 minor unit.
	MaxListCost money.Money `json:"max_list_cost"`
}

// Limit returns a budget capping spend at maxListCost.
func Limit(maxListCost money.Money) Budget {
	return Budget{Type: BudgetLimit, MaxListCost: maxListCost}
}

// MarshalJSON fills in the type when it was left empty.
func (b Budget) MarshalJSON() ([]byte, error) {
	type plain Budget
	if b.Type == "" {
		b.Type = BudgetLimit
	}
	return json.Marshal(plain(b))
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
}

// CacheCreation counts input tokens written to the prompt cache, by TTL.
type CacheCreation struct {
	Ephemeral1hInputTokens int64 `json:"ephemeral_1h_input_tokens"`
	Ephemeral5mInputTokens int64 `json:"ephemeral_5m_input_tokens"`
}

// ServerToolUse counts calls of server-side tools.
type ServerToolUse struct {
	WebFetchRequests  int64 `json:"web_fetch_requests"`
	WebSearchRequests int64 `json:"web_search_requests"`
}

// Stats are a session's timings.
type Stats struct {
	ActiveSeconds   float64 `json:"active_seconds"`
	DurationSeconds float64 `json:"duration_seconds"`
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
}

// OutcomeResult is the verdict of an evaluation. Values this SDK does not
// know are kept as they are.
type OutcomeResult string

// OutcomeSatisfied means the rubric is met.
const OutcomeSatisfied OutcomeResult = "satisfied"

// Deleted is the answer to a delete: the id of what is gone and a type of
// "session_deleted" or "session_resource_deleted".
type Deleted struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}
