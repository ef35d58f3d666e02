// Package attr names every attribute key the SDK and the reference
// server's API spans write, in one place, for the module's own use.
// OpenTelemetry's semantic conventions are used where they define the key;
// the vendor's own keys, which applications may query, are defined in the
// public tracing package and named here too.
package attr

import (
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/agentplatform/agentplatform-go/tracing"
)

// Common request attributes.
const (
	GenAIProviderName    = semconv.GenAIProviderNameKey // "vendor" on every span
	OrganizationID       = tracing.OrganizationID
	WorkspaceID          = tracing.WorkspaceID
	RequestID            = tracing.RequestID
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
	Beta                 = tracing.Beta
	ContentTruncated     = tracing.ContentTruncated
	SessionID            = tracing.SessionID
	GenAIConversationID  = semconv.GenAIConversationIDKey // the thread id, or the conversation_id option
	SessionEnvironmentID = tracing.SessionEnvironmentID

	// HTTPRequestBodySize is the file bytes an upload sent;
	// HTTPResponseBodySize the bytes a download read, known when it is
	// closed. Calls with JSON bodies record neither.
	HTTPRequestBodySize  = semconv.HTTPRequestBodySizeKey
	HTTPResponseBodySize = semconv.HTTPResponseBodySizeKey
	FileID               = tracing.FileID
	SkillID              = tracing.SkillID
	SkillVersionID       = tracing.SkillVersionID
	BatchID              = tracing.BatchID
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
	GenAIRequestReasoningLevel = tracing.GenAIRequestReasoningLevel
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

	MessageStopReason      = tracing.MessageStopReason
	RequestServiceTier     = tracing.RequestServiceTier
	ResponseServiceTier    = tracing.ResponseServiceTier
	ThinkingType           = tracing.ThinkingType
	ThinkingBudgetTokens   = tracing.ThinkingBudgetTokens
	CountTokensInputTokens = tracing.CountTokensInputTokens
	SessionTurnStopReason  = tracing.SessionTurnStopReason
)

// Token usage (on vendor.messages.create, vendor.model_request,
// vendor.compaction, vendor.session.outcome_evaluation).
const (
	UsageInputTokens     = semconv.GenAIUsageInputTokensKey // cache reads and writes included
	UsageOutputTokens    = semconv.GenAIUsageOutputTokensKey
	UsageCacheWrite      = tracing.UsageCacheWrite
	UsageCacheRead       = semconv.GenAIUsageCacheReadInputTokensKey
	UsageReasoningOutput = semconv.GenAIUsageReasoningOutputTokensKey
	UsageEphemeral5m     = tracing.UsageEphemeral5m
	UsageEphemeral1h     = tracing.UsageEphemeral1h
	UsageCompactionIn    = tracing.UsageCompactionIn
	UsageCompactionOut   = tracing.UsageCompactionOut
)

// Values.
const (
	ProviderVendor = tracing.ProviderVendor

	// SDKScope is the instrumentation scope of the SDK's spans
	// (com.vendor.sdk.<language>); APIScope that of the platform's.
	SDKScope = tracing.SDKScope
	APIScope = tracing.APIScope
	// APIServiceName is service.name of the platform's spans.
	APIServiceName = tracing.APIServiceName
)
