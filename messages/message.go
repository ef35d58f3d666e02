package messages

import (
	"encoding/json"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Role is the author of a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleSystem is a system message: instructions added in the middle of
	// the conversation, immediately after a user message, with text only
	// (SystemText, SystemTextBlocks). The prompt that opens the
	// conversation still goes in MessageParams.System.
	RoleSystem Role = "system"
)

// Message is the model's answer (docs/messages-wire.md 4): the response of
// Create, and what a stream accumulates to.
type Message struct {
	ID    string `json:"id"`
	Type  string `json:"type"` // "message"
	Role  Role   `json:"role"` // "assistant"
	Model string `json:"model"`
	// Model is the model that produced the message: the fallback model
	// when a fallback served the request.
	Content      []ContentBlock `json:"content"`
	StopReason   StopReason     `json:"stop_reason,omitzero"`   // "" only while streaming
	StopSequence string         `json:"stop_sequence,omitzero"` // the stop sequence matched; "" when null
	StopDetails  *StopDetails   `json:"stop_details"`           // set on a refusal, otherwise nil
	Container    *Container     `json:"container"`              // set when code execution ran
	Diagnostics  *Diagnostics   `json:"diagnostics"`            // nil unless a cache miss was diagnosed
	Usage        Usage          `json:"usage"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Param returns the message as an assistant message of a request, to carry
// the conversation on. Its blocks are sent back unchanged.
func (m *Message) Param() MessageParam {
	return MessageParam{Role: RoleAssistant, Content: Blocks(m.Content)}
}

// Text returns the text of the message's text blocks, concatenated.
func (m *Message) Text() string {
	var b strings.Builder
	for _, c := range m.Content {
		if t, ok := c.(TextBlock); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// ToolUses returns the message's client tool calls, in order.
func (m *Message) ToolUses() []ToolUseBlock {
	var out []ToolUseBlock
	for _, c := range m.Content {
		if t, ok := c.(ToolUseBlock); ok {
			out = append(out, t)
		}
	}
	return out
}

// StopReason says why the model stopped. Unknown values are kept.
type StopReason string

const (
	StopEndTurn                    StopReason = "end_turn"
	StopMaxTokens                  StopReason = "max_tokens"
	StopSequenceMatched            StopReason = "stop_sequence"
	StopToolUse                    StopReason = "tool_use"
	StopPauseTurn                  StopReason = "pause_turn"
	StopRefusal                    StopReason = "refusal"
	StopModelContextWindowExceeded StopReason = "model_context_window_exceeded"
)

// StopDetails explains a refusal (type "refusal").
type StopDetails struct {
	Type string `json:"type"`
	// Category is cyber, bio, frontier_llm, reasoning_extraction,
	// general_harms, or "" when null; unknown values are kept.
	Category string `json:"category,omitzero"`
	// Explanation is for humans and not stable; "" when null.
	Explanation string `json:"explanation,omitzero"`
	// RecommendedModel is sent only when the request set Fallbacks: a
	// model to retry directly, or "" when null.
	RecommendedModel string `json:"recommended_model,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Container is the code-execution container a request used.
type Container struct {
	ID        string    `json:"id"`
	ExpiresAt time.Time `json:"expires_at"`
	// Skills are the skills loaded in the container, empty when none.
	Skills []ContainerSkill `json:"skills"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Usage is the token usage of a request (docs/messages-wire.md 4.3). The
// total input is InputTokens + CacheCreationInputTokens +
// CacheReadInputTokens.
type Usage struct {
	// InputTokens are the input tokens neither written to nor read from
	// the cache.
	InputTokens              int           `json:"input_tokens"`
	CacheCreationInputTokens int           `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int           `json:"cache_read_input_tokens"`
	CacheCreation            CacheCreation `json:"cache_creation"`
	// OutputTokens counts all output, thinking included.
	OutputTokens        int                  `json:"output_tokens"`
	OutputTokensDetails *OutputTokensDetails `json:"output_tokens_details"`  // nil unless thinking was on
	ServerToolUse       *ServerToolUsage     `json:"server_tool_use"`        // nil unless a server tool was declared
	ServiceTier         ServiceTier          `json:"service_tier"`           // the tier that served the request
	InferenceGeo        string               `json:"inference_geo,omitzero"` // where inference ran
	// Speed is the inference speed mode that served the request:
	// SpeedStandard or SpeedFast; unknown values are kept.
	Speed Speed `json:"speed,omitzero"`
	// Iterations lists each attempt, when the request set Fallbacks.
	Iterations []UsageIteration `json:"iterations,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// TotalInputTokens is the whole input: uncached, written and read.
func (u Usage) TotalInputTokens() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// CacheCreation splits the tokens written to the cache by lifetime.
type CacheCreation struct {
	Ephemeral5mInputTokens int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1hInputTokens int `json:"ephemeral_1h_input_tokens"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// OutputTokensDetails details the output tokens.
type OutputTokensDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ServerToolUsage counts server tool requests.
type ServerToolUsage struct {
	WebSearchRequests int `json:"web_search_requests"`
	WebFetchRequests  int `json:"web_fetch_requests"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UsageIteration is one attempt of a request with fallbacks: Type is
// "message" for a hop that declined, "fallback_message" for the one that
// served.
type UsageIteration struct {
	Type                     string         `json:"type"`
	Model                    string         `json:"model"`
	InputTokens              int            `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            *CacheCreation `json:"cache_creation"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ServiceTier is a service tier. Requests choose ServiceTierAuto or
// ServiceTierStandardOnly; usage reports standard, priority or batch.
// Unknown values are kept.
type ServiceTier string

const (
	ServiceTierAuto         ServiceTier = "auto"
	ServiceTierStandardOnly ServiceTier = "standard_only"
	ServiceTierStandard     ServiceTier = "standard"
	ServiceTierPriority     ServiceTier = "priority"
	ServiceTierBatch        ServiceTier = "batch"
)

// Speed is an inference speed mode. Unknown values are kept.
type Speed string

const (
	SpeedStandard Speed = "standard"
	SpeedFast     Speed = "fast"
)

// TokenCount is the answer of CountTokens: the total input tokens Create
// would report for the same input.
type TokenCount struct {
	InputTokens int `json:"input_tokens"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// The plain copies of the types above, and their JSON.
type (
	plainMessage             Message
	plainStopDetails         StopDetails
	plainContainer           Container
	plainUsage               Usage
	plainCacheCreation       CacheCreation
	plainOutputTokensDetails OutputTokensDetails
	plainServerToolUsage     ServerToolUsage
	plainUsageIteration      UsageIteration
	plainTokenCount          TokenCount
)

func (m Message) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMessage(m)) }
func (m *Message) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainMessage)(m), &m.Extra)
}

func (d StopDetails) MarshalJSON() ([]byte, error) { return wire.Marshal(plainStopDetails(d)) }
func (d *StopDetails) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainStopDetails)(d), &d.Extra)
}

func (c Container) MarshalJSON() ([]byte, error) { return wire.Marshal(plainContainer(c), apiTimes) }

// apiTimes writes times as the API does, with microseconds, unless they
// are more precise: a time read from the API is written back as it was read.
var apiTimes = jsonv2.WithMarshalers(jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, t time.Time) error {
	layout := "2006-01-02T15:04:05.000000Z07:00"
	if t.Nanosecond()%1000 != 0 {
		layout = time.RFC3339Nano
	}
	return enc.WriteToken(jsontext.String(t.Format(layout)))
}))

func (c *Container) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainContainer)(c), &c.Extra)
}

func (u Usage) MarshalJSON() ([]byte, error) { return wire.Marshal(plainUsage(u)) }
func (u *Usage) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainUsage)(u), &u.Extra)
}

func (c CacheCreation) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCacheCreation(c)) }
func (c *CacheCreation) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCacheCreation)(c), &c.Extra)
}

func (d OutputTokensDetails) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainOutputTokensDetails(d))
}
func (d *OutputTokensDetails) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainOutputTokensDetails)(d), &d.Extra)
}

func (u ServerToolUsage) MarshalJSON() ([]byte, error) { return wire.Marshal(plainServerToolUsage(u)) }
func (u *ServerToolUsage) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainServerToolUsage)(u), &u.Extra)
}

func (it UsageIteration) MarshalJSON() ([]byte, error) { return wire.Marshal(plainUsageIteration(it)) }
func (it *UsageIteration) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainUsageIteration)(it), &it.Extra)
}

func (n TokenCount) MarshalJSON() ([]byte, error) { return wire.Marshal(plainTokenCount(n)) }
func (n *TokenCount) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainTokenCount)(n), &n.Extra)
}
