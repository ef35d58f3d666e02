package messages

import "time"

// The model catalogue (docs/api-choices.md "Models"), newest release first
// as List Models returns it. It is the one list of model ids the server
// accepts: agents, session overrides, Messages and chat completions all
// refuse an id that is not here. This file is data only: a new model is a
// new entry here.
//
// Beside the three current models the API names, the catalogue keeps the
// previous generation, deprecated: realistic older ids that still run. They
// have no list price in the reference server (usage.go prices the three
// current models only), so a budget cannot cover them.

func releaseDate(year int, month time.Month, day int) time.Time {
	return time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
}

var modelCatalog = []model{
	{
		ID:             "vendor-opus-5-5",
		DisplayName:    "Vendor Opus 5.5",
		CreatedAt:      releaseDate(2026, time.August, 5),
		Lifecycle:      "active",
		Line:           "opus",
		MaxInputTokens: 1_000_000,
		MaxTokens:      128_000,
		Capabilities:   fullCapabilities(),
	},
	{
		ID:             "vendor-sonnet-5-5",
		DisplayName:    "Vendor Sonnet 5.5",
		CreatedAt:      releaseDate(2026, time.June, 17),
		Lifecycle:      "active",
		Line:           "sonnet",
		MaxInputTokens: 1_000_000,
		MaxTokens:      64_000,
		Capabilities: with(fullCapabilities(), func(c *modelCapabilities) {
			c.Effort.XHigh = unsupported
		}),
	},
	{
		ID:             "vendor-haiku-5-5",
		DisplayName:    "Vendor Haiku 5.5",
		CreatedAt:      releaseDate(2026, time.April, 22),
		Lifecycle:      "active",
		Line:           "haiku",
		MaxInputTokens: 200_000,
		MaxTokens:      64_000,
		Capabilities: with(fullCapabilities(), func(c *modelCapabilities) {
			c.Effort = effortCapability{}
			c.Thinking.Types.Adaptive = unsupported
			c.ContextManagement.Compact = unsupported
		}),
	},
	{
		ID:             "vendor-opus-4-5",
		DisplayName:    "Vendor Opus 4.5",
		CreatedAt:      releaseDate(2025, time.November, 24),
		DeprecatedAt:   releaseDate(2026, time.August, 5),
		RetiresAt:      releaseDate(2027, time.August, 5),
		Lifecycle:      "deprecated",
		Line:           "opus",
		MaxInputTokens: 200_000,
		MaxTokens:      64_000,
		Capabilities:   previousGeneration(true),
	},
	{
		ID:             "vendor-haiku-4-5",
		DisplayName:    "Vendor Haiku 4.5",
		CreatedAt:      releaseDate(2025, time.October, 15),
		DeprecatedAt:   releaseDate(2026, time.April, 22),
		RetiresAt:      releaseDate(2027, time.April, 22),
		Lifecycle:      "deprecated",
		Line:           "haiku",
		MaxInputTokens: 200_000,
		MaxTokens:      64_000,
		Capabilities:   previousGeneration(false),
	},
	{
		ID:             "vendor-sonnet-4-5",
		DisplayName:    "Vendor Sonnet 4.5",
		CreatedAt:      releaseDate(2025, time.September, 29),
		DeprecatedAt:   releaseDate(2026, time.June, 17),
		RetiresAt:      releaseDate(2027, time.June, 17),
		Lifecycle:      "deprecated",
		Line:           "sonnet",
		MaxInputTokens: 200_000,
		MaxTokens:      64_000,
		Capabilities:   previousGeneration(false),
	},
}

// previousGeneration is the capability set of the deprecated models: no
// adaptive thinking, no compaction, and effort levels up to max (xhigh came
// later) on the models that have effort at all.
func previousGeneration(effort bool) modelCapabilities {
	return with(fullCapabilities(), func(c *modelCapabilities) {
		c.Thinking.Types.Adaptive = unsupported
		c.ContextManagement.Compact = unsupported
		c.Effort.XHigh = unsupported
		if !effort {
			c.Effort = effortCapability{}
		}
	})
}

var (
	supported   = capability{Supported: true}
	unsupported = capability{Supported: false}
)

// fullCapabilities is a model that supports everything.
func fullCapabilities() modelCapabilities {
	return modelCapabilities{
		Batch:         supported,
		Citations:     supported,
		CodeExecution: supported,
		ContextManagement: contextManagementCapability{
			Supported:     true,
			ClearThinking: supported,
			ClearToolUses: supported,
			Compact:       supported,
		},
		Effort: effortCapability{
			Supported: true,
			Low:       supported,
			Medium:    supported,
			High:      supported,
			Max:       supported,
			XHigh:     supported,
		},
		ImageInput: supported,
		PDFInput:   supported,
		ServerTools: serverToolsCapability{
			Supported:     true,
			CodeExecution: supported,
			WebSearch:     supported,
		},
		StructuredOutputs: supported,
		Thinking: thinkingCapability{
			Supported: true,
			// between_tools is unsupported on every model: the reference
			// server rejects that thinking type.
			Types: thinkingTypes{Adaptive: supported, BetweenTools: unsupported, Disabled: supported, Enabled: supported},
		},
	}
}

func with(c modelCapabilities, change func(*modelCapabilities)) modelCapabilities {
	change(&c)
	return c
}
