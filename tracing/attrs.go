package tracing

import (
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// Every attribute key the SDK (and the reference server's API spans) write,
// in one place. OpenTelemetry's semantic conventions are used where they
// define the key; the rest are defined here: vendor attributes, and the
// GenAI keys the API names differently or the conventions lack.

// Common request attributes.
const (
	GenAIProviderName    = semconv.GenAIProviderNameKey // "vendor" on every span
	OrganizationID       = attribute.Key("vendor.organization.id")
	WorkspaceID          = attribute.Key("vendor.workspace.id")
	RequestID            = attribute.Key("vendor.request.id") // the request-id response header
	HTTPRequestMethod    = semconv.HTTPRequestMethodKey
	HTTPRoute            = semconv.HTTPRouteKey
	HTTPResponseStatus   = semconv.HTTPResponseStatusCodeKey // int; absent when no response
	HTTPRequestResends   = semconv.HTTPRequestResendCountKey // retries of the call, when any
	ServerAddress        = semconv.ServerAddressKey
	ServerPort           = semconv.ServerPortKey // int
	URLScheme            = semconv.URLSchemeKey
	URLPath              = semconv.URLPathKey
	URLQuery             = semconv.URLQueryKey // endpoint-defined parameters only; absent when none
	URLFull              = semconv.URLFullKey  // never holds a credential
	ErrorType            = semconv.ErrorTypeKey
	Beta                 = attribute.Key("vendor.beta") // SDK only: the vendor-beta values sent
	ContentTruncated     = attribute.Key("vendor.content.truncated")
	SessionID            = attribute.Key("vendor.session.id")
	GenAIConversationID  = semconv.GenAIConversationIDKey // the thread id, or the conversation_id option
	SessionEnvironmentID = attribute.Key("vendor.session.environment.id")
)

// GenAI request and response attributes.
const (
	GenAIOperationName         = semconv.GenAIOperationNameKey // "chat", "invoke_agent", "execute_tool"
	GenAIRequestModel          = semconv.GenAIRequestModelKey
	GenAIRequestMaxTokens      = semconv.GenAIRequestMaxTokensKey
	GenAIRequestTemperature    = semconv.GenAIRequestTemperatureKey
	GenAIRequestTopP           = semconv.GenAIRequestTopPKey
	GenAIRequestTopK           = semconv.GenAIRequestTopKKey
	GenAIRequestStream         = semconv.GenAIRequestStreamKey
	GenAIRequestStopSequences  = semconv.GenAIRequestStopSequencesKey // content mode only
	GenAIRequestReasoningLevel = attribute.Key("gen_ai.request.reasoning.level")
	GenAIOutputType            = semconv.GenAIOutputTypeKey // "json" with a JSON output format
	GenAIResponseID            = semconv.GenAIResponseIDKey
	GenAIResponseModel         = semconv.GenAIResponseModelKey
	GenAITimeToFirstChunk      = semconv.GenAIResponseTimeToFirstChunkKey // seconds; SDK, streaming
	GenAIAgentID               = semconv.GenAIAgentIDKey
	GenAIAgentName             = semconv.GenAIAgentNameKey
	GenAIAgentDescription      = semconv.GenAIAgentDescriptionKey
	GenAIToolName              = semconv.GenAIToolNameKey
	GenAIToolCallID            = semconv.GenAIToolCallIDKey
	GenAIToolType              = semconv.GenAIToolTypeKey
	GenAIToolCallArguments     = semconv.GenAIToolCallArgumentsKey  // content mode only
	GenAIToolCallResult        = semconv.GenAIToolCallResultKey     // content mode only
	GenAISystemInstructions    = semconv.GenAISystemInstructionsKey // content mode only
	GenAIInputMessages         = semconv.GenAIInputMessagesKey      // content mode only
	GenAIOutputMessages        = semconv.GenAIOutputMessagesKey     // content mode only

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
	UsageInputTokens     = semconv.GenAIUsageInputTokensKey // cache reads and writes included
	UsageOutputTokens    = semconv.GenAIUsageOutputTokensKey
	UsageCacheWrite      = attribute.Key("gen_ai.usage.cache_write.input_tokens") // the API's name; semconv says cache_creation
	UsageCacheRead       = semconv.GenAIUsageCacheReadInputTokensKey
	UsageReasoningOutput = semconv.GenAIUsageReasoningOutputTokensKey
	UsageEphemeral5m     = attribute.Key("vendor.usage.cache_creation.ephemeral_5m_input_tokens") // Messages only
	UsageEphemeral1h     = attribute.Key("vendor.usage.cache_creation.ephemeral_1h_input_tokens") // Messages only
	UsageCompactionIn    = attribute.Key("vendor.usage.compaction.input_tokens")
	UsageCompactionOut   = attribute.Key("vendor.usage.compaction.output_tokens")
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
