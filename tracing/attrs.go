package tracing

import (
	"go.opentelemetry.io/otel/attribute"
)

// Every attribute key the SDK (and the reference server's API spans) write,
// in one place. OpenTelemetry's semantic conventions are used where they
// define the key; the rest are defined here: vendor attributes, and the
// GenAI keys the API names differently or the conventions lack.

// Common request attributes.
const (
	OrganizationID       = attribute.Key("vendor.organization.id")
	WorkspaceID          = attribute.Key("vendor.workspace.id")
	RequestID            = attribute.Key("vendor.request.id") // the request-id response header
	Beta                 = attribute.Key("vendor.beta")       // SDK only: the vendor-beta values sent
	ContentTruncated     = attribute.Key("vendor.content.truncated")
	SessionID            = attribute.Key("vendor.session.id")
	SessionEnvironmentID = attribute.Key("vendor.session.environment.id")
	// FileID is the file an upload created or a download, retrieval or
	// deletion names.
	FileID = attribute.Key("vendor.file.id")
	// SkillID is the skill a skills call creates or names; SkillVersionID
	// the version (an id, or "latest" on a retrieval).
	SkillID        = attribute.Key("vendor.skill.id")
	SkillVersionID = attribute.Key("vendor.skill.version.id")
	// EnvironmentID is the environment whose work queue a call acts on;
	// WorkID the work item it names; WorkerID the environment worker
	// (package selfhosted) that serves the item.
	EnvironmentID = attribute.Key("vendor.environment.id")
	WorkID        = attribute.Key("vendor.environment.work.id")
	WorkerID      = attribute.Key("vendor.environment.worker.id")
	// BatchID is the message batch a batch call creates or names.
	BatchID = attribute.Key("vendor.message_batch.id")
)

// GenAI request and response attributes.
const (
	GenAIRequestReasoningLevel = attribute.Key("gen_ai.request.reasoning.level")

	MessageStopReason      = attribute.Key("vendor.message.stop_reason")
	RequestServiceTier     = attribute.Key("vendor.request.service_tier")
	ResponseServiceTier    = attribute.Key("vendor.response.service_tier")
	ThinkingType           = attribute.Key("vendor.thinking.type")
	ThinkingBudgetTokens   = attribute.Key("vendor.thinking.budget_tokens")
	CountTokensInputTokens = attribute.Key("vendor.message.count_tokens.input_tokens") // not usage: exclude from sums
	SessionTurnStopReason  = attribute.Key("vendor.session.turn.stop_reason")
)

// Token usage (on vendor.messages.create, vendor.model_request,
// vendor.compaction, vendor.session.outcome_evaluation).
const (
	UsageCacheWrite    = attribute.Key("gen_ai.usage.cache_write.input_tokens")                 // the API's name; semconv says cache_creation
	UsageEphemeral5m   = attribute.Key("vendor.usage.cache_creation.ephemeral_5m_input_tokens") // Messages only
	UsageEphemeral1h   = attribute.Key("vendor.usage.cache_creation.ephemeral_1h_input_tokens") // Messages only
	UsageCompactionIn  = attribute.Key("vendor.usage.compaction.input_tokens")
	UsageCompactionOut = attribute.Key("vendor.usage.compaction.output_tokens")
)

// Values.
const (
	ProviderVendor = "vendor"

	// SDKScope is the instrumentation scope of the SDK's spans
	// (com.vendor.sdk.<language>); APIScope that of the platform's.
	SDKScope = "com.vendor.sdk.go"
	APIScope = "com.vendor.platform"
	// APIServiceName is service.name of the platform's spans.
	APIServiceName = "vendor-platform"
)
