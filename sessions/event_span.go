package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Span events (docs/session-events-wire.md 4.13, 4.14): model requests and
// outcome evaluations.

// SpanModelRequestStartEvent says the agent started a model request.
type SpanModelRequestStartEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SpanModelRequestEndEvent says a model request ended. It closes the
// previews of its request (see Previews).
type SpanModelRequestEndEvent struct {
	EventMeta
	ModelRequestStartID string `json:"model_request_start_id"` // the matching SpanModelRequestStartEvent
	// IsError is true when the request failed; an interrupted request is
	// not an error.
	IsError    bool       `json:"is_error"`
	ModelUsage ModelUsage `json:"model_usage"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ModelUsage is the token usage of one model request, or of the grader's
// requests of one outcome evaluation.
type ModelUsage struct {
	InputTokens              int64  `json:"input_tokens"`                // uncached input
	OutputTokens             int64  `json:"output_tokens"`               // thinking included
	CacheCreationInputTokens int64  `json:"cache_creation_input_tokens"` // written to the prompt cache
	CacheReadInputTokens     int64  `json:"cache_read_input_tokens"`     // read from the prompt cache
	Speed                    string `json:"speed,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainModelUsage ModelUsage

// MarshalJSON writes the wire object.
func (u ModelUsage) MarshalJSON() ([]byte, error) { return wire.Marshal(plainModelUsage(u)) }

// UnmarshalJSON decodes the wire object.
func (u *ModelUsage) UnmarshalJSON(data []byte) error {
	*u = ModelUsage{}
	return wire.Unmarshal(data, (*plainModelUsage)(u))
}

// TotalInputTokens is all the input of the request: uncached, cache writes
// and cache reads (what a span's gen_ai.usage.input_tokens counts).
func (u ModelUsage) TotalInputTokens() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// SpanOutcomeEvaluationStartEvent says the grader started evaluating an
// outcome; Iteration is 0 for the first evaluation.
type SpanOutcomeEvaluationStartEvent struct {
	EventMeta
	OutcomeID string `json:"outcome_id"`
	Iteration int    `json:"iteration"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SpanOutcomeEvaluationOngoingEvent is a heartbeat while the grader runs.
type SpanOutcomeEvaluationOngoingEvent struct {
	EventMeta
	OutcomeID string `json:"outcome_id"`
	Iteration int    `json:"iteration"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SpanOutcomeEvaluationEndEvent says an evaluation ended with Result.
type SpanOutcomeEvaluationEndEvent struct {
	EventMeta
	OutcomeID                string `json:"outcome_id"`
	OutcomeEvaluationStartID string `json:"outcome_evaluation_start_id"`
	Iteration                int    `json:"iteration"`
	// Result is OutcomeSatisfied, OutcomeNeedsRevision (another cycle
	// follows), OutcomeMaxIterationsReached, OutcomeFailed,
	// OutcomeInterrupted, or a value this SDK does not know.
	Result      OutcomeResult `json:"result"`
	Explanation string        `json:"explanation"`
	Usage       ModelUsage    `json:"usage"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}
