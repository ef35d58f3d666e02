package messages

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// The names these files used while they were in package refserver, for
// what now lives in packages kit and spans. They keep the move mechanical
// (and merges with edits made meanwhile easy); they go away as the files
// switch to kit.X and spans.X.

type (
	call           = kit.Call
	route          = kit.Route
	exchange       = kit.Exchange
	apiError       = kit.APIError
	responseBuffer = kit.ResponseBuffer
	timestamp      = kit.Timestamp
	errorBody      = kit.ErrorBody
	errorDetail    = kit.ErrorDetail
	requestSpan    = spans.Request
	spanOutcome    = spans.Outcome
	contentAttrs   = spans.Content

	optional[T any] = kit.Optional[T]
)

const (
	errInvalidRequest = kit.ErrInvalidRequest
	errRateLimit      = kit.ErrRateLimit
	errAPI            = kit.ErrAPI
	errOverloaded     = kit.ErrOverloaded
	idBodyLen         = kit.IDBodyLen
	base62            = kit.Base62
	toolErrorType     = spans.ToolErrorType
)

var (
	errTrailingData     = kit.ErrTrailingData
	parseIDPageParams   = kit.ParseIDPageParams
	optionalTimestamp   = kit.OptionalTimestamp
	newAPIError         = kit.NewAPIError
	invalidRequest      = kit.InvalidRequest
	notFound            = kit.NotFound
	errorTypeForStatus  = kit.ErrorTypeForStatus
	openAIError         = kit.OpenAIError
	dropConnection      = kit.DropConnection
	defaultFaultMessage = kit.DefaultFaultMessage
	inferenceGeos       = kit.InferenceGeos
	endWith             = spans.End
	reqSpan             = spans.Of
	recording           = spans.Recording
	toolAttrs           = spans.ToolAttrs
)

func paginateByID[T any](all []T, id func(T) string, keep func(T) bool, p kit.IDPageParams) (kit.IDPage[T], error) {
	return kit.PaginateByID(all, id, keep, p)
}

func mapIDPage[T, U any](p kit.IDPage[T], view func(T) U) kit.IDPage[U] {
	return kit.MapIDPage(p, view)
}
