package messages

import (
	"bytes"
	"encoding/json"
	"maps"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
)

// MessageParams is the request of Create and Stream (docs/messages-wire.md
// 2). Model, MaxTokens and Messages are required; every other field is
// optional and left out when zero, except where a pointer or param.Nullable
// says otherwise.
type MessageParams struct {
	Model string `json:"model"`
	// MaxTokens bounds the output, 0 to the model's limit. It is always
	// sent: 0 only fills the prompt cache.
	MaxTokens int            `json:"max_tokens"`
	Messages  []MessageParam `json:"messages"`
	System    System         `json:"system,omitempty"` // Text or SystemBlocks

	Tools      []Tool      `json:"tools,omitzero"`
	ToolChoice ToolChoice  `json:"tool_choice,omitempty"`
	MCPServers []MCPServer `json:"mcp_servers,omitzero"` // the SDK sends the MCP beta

	// Temperature (0–1), TopP (0–1) and TopK (≥ 0) are pointers because 0
	// is meaningful: write new(0.7). They are for API version 2023-06-01
	// only: under 2026-10-21 a request that sets any of them, whatever the
	// value, is refused before it is sent (docs/api-versions.md).
	Temperature   *float64 `json:"temperature,omitempty"`
	TopP          *float64 `json:"top_p,omitempty"`
	TopK          *int     `json:"top_k,omitempty"`
	StopSequences []string `json:"stop_sequences,omitzero"`

	Thinking     Thinking      `json:"thinking,omitempty"` // ThinkingEnabled, ThinkingAdaptive or ThinkingDisabled
	OutputConfig *OutputConfig `json:"output_config,omitempty"`
	// OutputFormat is the deprecated alias of OutputConfig.Format.
	OutputFormat *JSONSchemaFormat `json:"output_format,omitempty"`

	ServiceTier ServiceTier `json:"service_tier,omitzero"` // ServiceTierAuto or ServiceTierStandardOnly
	Metadata    *Metadata   `json:"metadata,omitempty"`
	// InferenceGeo is "global" or "us"; omitted or null means the
	// workspace's default.
	InferenceGeo param.Nullable[string] `json:"inference_geo,omitzero"`
	// CacheControl sets the automatic breakpoint on the last cacheable block.
	CacheControl *CacheControl `json:"cache_control,omitempty"`
	// Container reuses a code-execution container, loads skills into one,
	// or both (ContainerParams); param.Null sends null.
	Container param.Nullable[ContainerParams] `json:"container,omitzero"`
	// Speed is the inference speed mode: SpeedStandard (the default) or
	// SpeedFast, on the models that offer it. Usage.Speed reports the mode
	// that served the request.
	Speed Speed `json:"speed,omitzero"`
	// Diagnostics asks the platform to explain prompt-cache misses against
	// an earlier response (Message.Diagnostics). Send it on every turn: with
	// a nil PreviousMessageID on the first, to opt in.
	Diagnostics *DiagnosticsParams `json:"diagnostics,omitempty"`
	// Fallbacks lists the models to try after a refusal: FallbacksDefault
	// or FallbackList. The SDK sends the server-side-fallback beta.
	Fallbacks Fallbacks `json:"fallbacks,omitempty"`

	// Extra holds request fields this SDK does not model (those unlocked
	// by betas, such as context_management), sent as given. A key that
	// names a modelled field replaces it.
	Extra map[string]json.RawMessage `json:"-"`
}

// MessageParam is one message of the conversation. Content is Text or
// Blocks.
type MessageParam struct {
	Role    Role    `json:"role"`
	Content Content `json:"content"`
}

type plainMessageParam MessageParam

func (m MessageParam) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMessageParam(m)) }

// UnmarshalJSON reads a message back, as stored after a conversation.
func (m *MessageParam) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainMessageParam)(m), unions)
}

// UserText returns a user message of plain text.
func UserText(text string) MessageParam { return MessageParam{Role: RoleUser, Content: Text(text)} }

// UserBlocks returns a user message of blocks.
func UserBlocks(blocks ...ContentBlock) MessageParam {
	return MessageParam{Role: RoleUser, Content: Blocks(blocks)}
}

// AssistantText returns an assistant message of plain text: a prefill when
// it is the last message.
func AssistantText(text string) MessageParam {
	return MessageParam{Role: RoleAssistant, Content: Text(text)}
}

// AssistantBlocks returns an assistant message of blocks.
func AssistantBlocks(blocks ...ContentBlock) MessageParam {
	return MessageParam{Role: RoleAssistant, Content: Blocks(blocks)}
}

// SystemText returns a system message of plain text: instructions added
// mid-conversation, immediately after a user message, that keep the cached
// prefix before them (docs/api-versions.md). The opening prompt belongs in
// MessageParams.System.
func SystemText(text string) MessageParam {
	return MessageParam{Role: RoleSystem, Content: Text(text)}
}

// SystemTextBlocks returns a system message of text blocks, as SystemText;
// a block may carry CacheControl, not Citations.
func SystemTextBlocks(blocks ...TextBlock) MessageParam {
	content := make(Blocks, len(blocks))
	for i, b := range blocks {
		content[i] = b
	}
	return MessageParam{Role: RoleSystem, Content: content}
}

// Metadata describes the request. UserID is an opaque id of the end user
// (at most 512 characters), never a name or an email.
type Metadata struct {
	UserID string `json:"user_id,omitzero"`
}

// OutputConfig sets the effort and the JSON output format.
type OutputConfig struct {
	// Effort is low, medium, high (the default), xhigh or max, as the
	// model supports.
	Effort Effort            `json:"effort,omitzero"`
	Format *JSONSchemaFormat `json:"format,omitempty"`
}

// Effort is how hard the model works. Unknown values are kept.
type Effort string

const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortXHigh  Effort = "xhigh"
	EffortMax    Effort = "max"
)

// JSONSchemaFormat makes the final text block one JSON document valid for
// Schema, a JSON Schema object (type "json_schema").
type JSONSchemaFormat struct {
	Schema json.RawMessage `json:"schema"`
}

func (f JSONSchemaFormat) MarshalJSON() ([]byte, error) {
	type plain JSONSchemaFormat
	return wire.Tagged("json_schema", plain(f))
}

// Thinking configures extended thinking: ThinkingEnabled, ThinkingAdaptive
// or ThinkingDisabled.
type Thinking interface{ isThinking() }

// ThinkingEnabled thinks with a budget (type "enabled"): BudgetTokens is at
// least 1024 and less than MaxTokens.
type ThinkingEnabled struct {
	BudgetTokens int             `json:"budget_tokens"`
	Display      ThinkingDisplay `json:"display,omitzero"`
}

// ThinkingAdaptive lets the model decide how much to think (type
// "adaptive"), on models that support it.
type ThinkingAdaptive struct {
	Display ThinkingDisplay `json:"display,omitzero"`
}

// ThinkingDisabled turns thinking off (type "disabled"), as omitting it does.
type ThinkingDisabled struct{}

// ThinkingDisplay says how thinking is returned: ThinkingSummarized, or
// ThinkingOmitted (empty thinking text with a valid signature).
type ThinkingDisplay string

const (
	ThinkingSummarized ThinkingDisplay = "summarized"
	ThinkingOmitted    ThinkingDisplay = "omitted"
)

func (ThinkingEnabled) isThinking()  {}
func (ThinkingAdaptive) isThinking() {}
func (ThinkingDisabled) isThinking() {}

func (t ThinkingEnabled) MarshalJSON() ([]byte, error) {
	type plain ThinkingEnabled
	return wire.Tagged("enabled", plain(t))
}

func (t ThinkingAdaptive) MarshalJSON() ([]byte, error) {
	type plain ThinkingAdaptive
	return wire.Tagged("adaptive", plain(t))
}

func (t ThinkingDisabled) MarshalJSON() ([]byte, error) {
	return wire.Tagged("disabled", struct{}{})
}

// thinkingOn reports whether t turns thinking on.
func thinkingOn(t Thinking) bool {
	switch t.(type) {
	case ThinkingEnabled, *ThinkingEnabled, ThinkingAdaptive, *ThinkingAdaptive:
		return true
	}
	return false
}

// ToolChoice says how the model uses tools: ToolChoiceAuto (the default
// with tools), ToolChoiceAny, ToolChoiceTool or ToolChoiceNone.
type ToolChoice interface{ isToolChoice() }

// ToolChoiceAuto lets the model decide (type "auto").
type ToolChoiceAuto struct {
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
}

// ToolChoiceAny makes the model use at least one tool (type "any"; exactly
// one with DisableParallelToolUse).
type ToolChoiceAny struct {
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
}

// ToolChoiceTool makes the model use the named tool (type "tool").
type ToolChoiceTool struct {
	Name                   string `json:"name"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use,omitzero"`
}

// ToolChoiceNone forbids tools (type "none").
type ToolChoiceNone struct{}

func (ToolChoiceAuto) isToolChoice() {}
func (ToolChoiceAny) isToolChoice()  {}
func (ToolChoiceTool) isToolChoice() {}
func (ToolChoiceNone) isToolChoice() {}

func (c ToolChoiceAuto) MarshalJSON() ([]byte, error) {
	type plain ToolChoiceAuto
	return wire.Tagged("auto", plain(c))
}

func (c ToolChoiceAny) MarshalJSON() ([]byte, error) {
	type plain ToolChoiceAny
	return wire.Tagged("any", plain(c))
}

func (c ToolChoiceTool) MarshalJSON() ([]byte, error) {
	type plain ToolChoiceTool
	return wire.Tagged("tool", plain(c))
}

func (c ToolChoiceNone) MarshalJSON() ([]byte, error) {
	return wire.Tagged("none", struct{}{})
}

// Fallbacks are the models to try after a refusal: FallbacksDefault or
// FallbackList (docs/messages-wire.md 8.3).
type Fallbacks interface{ isFallbacks() }

// FallbacksDefault lets the platform pick the fallback ("default").
type FallbacksDefault struct{}

// FallbackList tries 1 to 3 distinct models in order.
type FallbackList []Fallback

// Fallback is one fallback model, with overrides for that attempt.
type Fallback struct {
	Model        string        `json:"model"`
	MaxTokens    int           `json:"max_tokens,omitzero"`
	Thinking     Thinking      `json:"thinking,omitempty"`
	OutputConfig *OutputConfig `json:"output_config,omitempty"`
	Speed        string        `json:"speed,omitzero"`
}

func (FallbacksDefault) isFallbacks() {}
func (FallbackList) isFallbacks()     {}

func (FallbacksDefault) MarshalJSON() ([]byte, error) { return []byte(`"default"`), nil }

// CountTokensParams is the request of CountTokens (docs/messages-wire.md
// 6): the create fields that shape the input, and no others.
type CountTokensParams struct {
	Model        string         `json:"model"`
	Messages     []MessageParam `json:"messages"`
	System       System         `json:"system,omitempty"`
	Tools        []Tool         `json:"tools,omitzero"`
	ToolChoice   ToolChoice     `json:"tool_choice,omitempty"`
	Thinking     Thinking       `json:"thinking,omitempty"`
	OutputConfig *OutputConfig  `json:"output_config,omitempty"`
	CacheControl *CacheControl  `json:"cache_control,omitempty"`
	MCPServers   []MCPServer    `json:"mcp_servers,omitzero"`
	Speed        Speed          `json:"speed,omitzero"` // as MessageParams.Speed
}

// CountTokensParams returns the fields of p that CountTokens accepts, to
// count the input of a request before sending it.
func (p *MessageParams) CountTokensParams() CountTokensParams {
	return CountTokensParams{
		Model: p.Model, Messages: p.Messages, System: p.System, Tools: p.Tools, ToolChoice: p.ToolChoice,
		Thinking: p.Thinking, OutputConfig: p.OutputConfig, CacheControl: p.CacheControl, MCPServers: p.MCPServers,
		Speed: p.Speed,
	}
}

// body is the JSON of a create request: the params, "stream" when
// streaming, then Extra.
type body struct {
	p      *MessageParams
	stream bool
}

func (b body) MarshalJSON() ([]byte, error) {
	type plain MessageParams
	out, err := json.Marshal((*plain)(b.p))
	if err != nil {
		return nil, err
	}
	if !b.stream && len(b.p.Extra) == 0 {
		return out, nil
	}
	if len(b.p.Extra) > 0 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			return nil, err
		}
		maps.Copy(m, b.p.Extra)
		if b.stream {
			m["stream"] = json.RawMessage("true")
		}
		return json.Marshal(m) // sorted keys
	}
	out = bytes.TrimSuffix(out, []byte("}"))
	return append(out, `,"stream":true}`...), nil
}
