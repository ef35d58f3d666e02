package models

import (
	"encoding/json"
	"time"
)

// Model ids of the current generation. A model id is a plain string: any id
// the catalogue lists (Service.List) may be used, and the API refuses one it
// does not list.
const (
	VendorHaiku55  = "vendor-haiku-5-5"
	VendorSonnet55 = "vendor-sonnet-5-5"
	VendorOpus55   = "vendor-opus-5-5"
)

// Model ids of the previous generation, deprecated: they still run until
// their RetiresAt, and have no public list price (a session budget cannot
// cover them).
const (
	VendorHaiku45  = "vendor-haiku-4-5"
	VendorSonnet45 = "vendor-sonnet-4-5"
	VendorOpus45   = "vendor-opus-4-5"
)

// Lifecycle is a model's lifecycle stage. Values other than LifecycleActive
// are kept as received.
type Lifecycle string

const (
	LifecycleActive     Lifecycle = "active"
	LifecycleDeprecated Lifecycle = "deprecated" // still runs until RetiresAt
)

// Line is a model family. Values not listed here are kept as received.
type Line string

const (
	LineHaiku  Line = "haiku"
	LineSonnet Line = "sonnet"
	LineOpus   Line = "opus"
)

// Model is a catalogue entry (type "model").
type Model struct {
	Type        string    `json:"type"`
	ID          string    `json:"id"`
	DisplayName string    `json:"display_name"`
	CreatedAt   time.Time `json:"created_at"` // release time
	// DeprecatedAt and RetiresAt are zero when not scheduled (null on the wire).
	DeprecatedAt   time.Time    `json:"deprecated_at,omitzero"`
	RetiresAt      time.Time    `json:"retires_at,omitzero"`
	Lifecycle      Lifecycle    `json:"lifecycle"`
	Line           Line         `json:"line"`
	MaxInputTokens int          `json:"max_input_tokens"` // context window
	MaxTokens      int          `json:"max_tokens"`       // largest allowed max_tokens
	Capabilities   Capabilities `json:"capabilities"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Capability says whether one feature is supported.
type Capability struct {
	Supported bool `json:"supported"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Capabilities lists what a model supports. Capabilities newer than this
// SDK are kept in Extra, as received.
type Capabilities struct {
	Batch             Capability                  `json:"batch"`
	Citations         Capability                  `json:"citations"`
	CodeExecution     Capability                  `json:"code_execution"`
	ContextManagement ContextManagementCapability `json:"context_management"`
	Effort            EffortCapability            `json:"effort"`
	ImageInput        Capability                  `json:"image_input"`
	PDFInput          Capability                  `json:"pdf_input"`
	ServerTools       ServerToolsCapability       `json:"server_tools"`
	StructuredOutputs Capability                  `json:"structured_outputs"`
	Thinking          ThinkingCapability          `json:"thinking"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContextManagementCapability lists the context-management strategies.
type ContextManagementCapability struct {
	Supported             bool       `json:"supported"`
	ClearThinking20251015 Capability `json:"clear_thinking_20251015"`
	ClearToolUses20250919 Capability `json:"clear_tool_uses_20250919"`
	Compact20260112       Capability `json:"compact_20260112"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// EffortCapability lists the effort levels. XHigh is not accepted by every model.
type EffortCapability struct {
	Supported bool       `json:"supported"`
	Low       Capability `json:"low"`
	Medium    Capability `json:"medium"`
	High      Capability `json:"high"`
	Max       Capability `json:"max"`
	XHigh     Capability `json:"xhigh"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ServerToolsCapability lists the server-side tools.
type ServerToolsCapability struct {
	Supported     bool       `json:"supported"`
	CodeExecution Capability `json:"code_execution"`
	WebSearch     Capability `json:"web_search"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ThinkingCapability lists the thinking modes.
type ThinkingCapability struct {
	Supported bool          `json:"supported"`
	Types     ThinkingTypes `json:"types"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ThinkingTypes are the thinking modes a request may choose.
type ThinkingTypes struct {
	Adaptive Capability `json:"adaptive"`
	// BetweenTools is thinking turned off, with the model's short progress
	// notes between tool calls returned as thinking blocks. Unsupported
	// means a request that chooses it is rejected.
	BetweenTools Capability `json:"between_tools"`
	Disabled     Capability `json:"disabled"`
	Enabled      Capability `json:"enabled"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}
