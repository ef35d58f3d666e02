package chat

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Completion is the answer of Create (object "chat.completion").
type Completion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"` // Unix seconds
	Model             string   `json:"model"`
	Choices           []Choice `json:"choices"` // exactly one
	Usage             *Usage   `json:"usage"`
	ServiceTier       string   `json:"service_tier,omitzero"`       // "" when null
	SystemFingerprint string   `json:"system_fingerprint,omitzero"` // "" when null
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Choice is the answer.
type Choice struct {
	Index        int          `json:"index"`
	Message      Message      `json:"message"`
	FinishReason FinishReason `json:"finish_reason,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FinishReason says why the model stopped. Unknown values are kept.
type FinishReason string

const (
	FinishStop          FinishReason = "stop"
	FinishLength        FinishReason = "length"
	FinishToolCalls     FinishReason = "tool_calls"
	FinishContentFilter FinishReason = "content_filter"
)

// Usage is the token usage: PromptTokens is the whole input.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainCompletion Completion
	plainChoice     Choice
	plainUsage      Usage
)

func (c Completion) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCompletion(c)) }
func (c *Completion) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCompletion)(c), &c.Extra)
}

func (c Choice) MarshalJSON() ([]byte, error) { return wire.Marshal(plainChoice(c)) }
func (c *Choice) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainChoice)(c), &c.Extra)
}

func (u Usage) MarshalJSON() ([]byte, error) { return wire.Marshal(plainUsage(u)) }
func (u *Usage) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainUsage)(u), &u.Extra)
}
