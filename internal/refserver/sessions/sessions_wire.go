package sessions

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// The session object on the wire (docs/managed-agents-wire.md 6.1). Every
// key is always sent; nullable ones as null.

// sessionUsage is what a session has consumed. It starts at zero; the
// session engine adds to it as turns run (usage.go); budget enforcement
// reads the exact cost behind listCost, Update Session listCost itself.
type sessionUsage struct {
	activeSeconds        float64
	cacheCreation1h      int64
	cacheCreation5m      int64
	cacheReadInputTokens int64
	inputTokens          int64
	outputTokens         int64
	listCost             int64 // USD minor units
	webFetchRequests     int64
	webSearchRequests    int64
	durationSeconds      float64 // stats
}

type cacheCreationJSON struct {
	Ephemeral1hInputTokens int64 `json:"ephemeral_1h_input_tokens"`
	Ephemeral5mInputTokens int64 `json:"ephemeral_5m_input_tokens"`
}

type serverToolUseJSON struct {
	WebFetchRequests  int64 `json:"web_fetch_requests"`
	WebSearchRequests int64 `json:"web_search_requests"`
}

type usageJSON struct {
	ActiveSeconds        float64           `json:"active_seconds"`
	CacheCreation        cacheCreationJSON `json:"cache_creation"`
	CacheReadInputTokens int64             `json:"cache_read_input_tokens"`
	InputTokens          int64             `json:"input_tokens"`
	OutputTokens         int64             `json:"output_tokens"`
	ListCost             moneyJSON         `json:"list_cost"`
	ServerToolUse        serverToolUseJSON `json:"server_tool_use"`
}

type statsJSON struct {
	ActiveSeconds   float64 `json:"active_seconds"`
	DurationSeconds float64 `json:"duration_seconds"`
}

// outcomeEvaluationJSON is one entry of outcome_evaluations, written by
// the session engine at an outcome's terminal result (engine_outcome.go).
type outcomeEvaluationJSON struct {
	Type        string        `json:"type"`
	OutcomeID   string        `json:"outcome_id"`
	Description string        `json:"description"`
	Explanation string        `json:"explanation"`
	Iteration   int           `json:"iteration"`
	Result      string        `json:"result"`
	CompletedAt kit.Timestamp `json:"completed_at"`
}

type sessionJSON struct {
	Type               string                  `json:"type"`
	ID                 string                  `json:"id"`
	Agent              any                     `json:"agent"`
	EnvironmentID      string                  `json:"environment_id"`
	Status             string                  `json:"status"`
	Title              *string                 `json:"title"`
	Metadata           map[string]string       `json:"metadata"`
	Resources          []any                   `json:"resources"`
	VaultIDs           []string                `json:"vault_ids"`
	Budget             *budgetJSON             `json:"budget"`
	DeploymentID       *string                 `json:"deployment_id"`
	OutcomeEvaluations []outcomeEvaluationJSON `json:"outcome_evaluations"`
	Stats              statsJSON               `json:"stats"`
	Usage              usageJSON               `json:"usage"`
	ArchivedAt         *kit.Timestamp          `json:"archived_at"`
	CreatedAt          kit.Timestamp           `json:"created_at"`
	UpdatedAt          kit.Timestamp           `json:"updated_at"`
}

func (x *session) view() sessionJSON {
	u := x.usage
	return sessionJSON{
		Type:               "session",
		ID:                 x.id,
		Agent:              x.agent.SessionAgentJSON(),
		EnvironmentID:      x.environmentID,
		Status:             x.status,
		Title:              x.title,
		Metadata:           x.metadata,
		Resources:          kit.MapSlice(x.resources, (*sessionResource).view),
		VaultIDs:           x.vaultIDs,
		Budget:             x.budget.view(),
		DeploymentID:       x.deploymentID,
		OutcomeEvaluations: x.outcomeEvaluations(),
		Stats:              statsJSON{ActiveSeconds: u.activeSeconds, DurationSeconds: u.durationSeconds},
		Usage:              x.usageView(),
		ArchivedAt:         kit.OptionalTimestamp(x.archivedAt),
		CreatedAt:          kit.Timestamp(x.createdAt),
		UpdatedAt:          kit.Timestamp(x.updatedAt),
	}
}
