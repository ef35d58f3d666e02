package chat

// Completion is the answer of Create (object "chat.completion").
type Completion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"` // Unix seconds
	Model             string   `json:"model"`
	Choices           []Choice `json:"choices"` // exactly one
	Usage             *Usage   `json:"usage"`
	ServiceTier       string   `json:"service_tier"`       // "" when null
	SystemFingerprint string   `json:"system_fingerprint"` // "" when null
}

// Choice is the answer.
type Choice struct {
	Index        int          `json:"index"`
	Message      Message      `json:"message"`
	FinishReason FinishReason `json:"finish_reason"`
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
}
