package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// Transitional: the old names of what moved to packages kit, spans and
// messages. They keep the families still in this package compiling
// unchanged (and merges with edits made meanwhile easy); each goes away
// once the last family that uses it has moved into its own package, which
// then calls kit, spans or messages directly.

type (
	call             = kit.Call
	route            = kit.Route
	exchange         = kit.Exchange
	apiError         = kit.APIError
	responseBuffer   = kit.ResponseBuffer
	timestamp        = kit.Timestamp
	position         = kit.Position
	cursorPageParams = kit.CursorPageParams
	errorBody        = kit.ErrorBody
	errorDetail      = kit.ErrorDetail

	optional[T any]   = kit.Optional[T]
	cursorPage[T any] = kit.CursorPage[T]
)

const (
	errInvalidRequest = kit.ErrInvalidRequest
	errPermission     = kit.ErrPermission
	errAPI            = kit.ErrAPI

	headerWorkspaceID = kit.HeaderWorkspaceID
	betaMCPTunnels    = kit.BetaMCPTunnels
	timestampLayout   = kit.TimestampLayout
	cursorPrefix      = kit.CursorPrefix
)

var (
	decodeStrict          = kit.DecodeStrict
	unmarshalStrict       = kit.UnmarshalStrict
	describeDecodeError   = kit.DescribeDecodeError
	describeType          = kit.DescribeType
	unknownFieldType      = kit.UnknownFieldType
	checkLength           = kit.CheckLength
	queryInt              = kit.QueryInt
	queryBool             = kit.QueryBool
	queryValue            = kit.QueryValue
	quoteList             = kit.QuoteList
	parseIDPageParams     = kit.ParseIDPageParams
	parseCursorPageParams = kit.ParseCursorPageParams
	decodeCursor          = kit.DecodeCursor
	optionalTimestamp     = kit.OptionalTimestamp
	newAPIError           = kit.NewAPIError
	invalidField          = kit.InvalidField
	invalidRequest        = kit.InvalidRequest
	stateConflict         = kit.StateConflict
	notFound              = kit.NotFound
	unauthenticated       = kit.Unauthenticated
	errorTypeForStatus    = kit.ErrorTypeForStatus
	writeError            = kit.WriteError
	writeJSON             = kit.WriteJSON
	checkVersion          = kit.CheckVersion
	parseBetas            = kit.ParseBetas
	dropConnection        = kit.DropConnection
	defaultFaultMessage   = kit.DefaultFaultMessage
)

func paginateByID[T any](all []T, id func(T) string, keep func(T) bool, p kit.IDPageParams) (kit.IDPage[T], error) {
	return kit.PaginateByID(all, id, keep, p)
}

func paginateByCursor[T any](all []T, pos func(T) position, keep func(T) bool, p cursorPageParams) cursorPage[T] {
	return kit.PaginateByCursor(all, pos, keep, p)
}

func newestFirst[T any](pos func(T) position) func(a, b T) int { return kit.NewestFirst(pos) }

func mapIDPage[T, U any](p kit.IDPage[T], view func(T) U) kit.IDPage[U] {
	return kit.MapIDPage(p, view)
}

func mapCursorPage[T, U any](p cursorPage[T], view func(T) U) cursorPage[U] {
	return kit.MapCursorPage(p, view)
}

func mapSlice[T, U any](in []T, f func(T) U) []U { return kit.MapSlice(in, f) }

// Of package spans.
type (
	requestSpan   = spans.Request
	spanOutcome   = spans.Outcome
	contentAttrs  = spans.Content
	serverTracing = spans.Tracing
)

const toolErrorType = spans.ToolErrorType

var (
	endWith   = spans.End
	reqSpan   = spans.Of
	recording = spans.Recording
	toolAttrs = spans.ToolAttrs

	agentContent = spans.AgentContent
)

// Of package messages.
type jnode = messages.JSON

const (
	pathMessages        = messages.PathMessages
	pathCountTokens     = messages.PathCountTokens
	pathChatCompletions = messages.PathChatCompletions
	opMessagesCreate    = messages.OpCreate
)

var (
	bodyStreams         = messages.BodyStreams
	markChatCompletions = messages.MarkChatCompletions
	methodNotAllowed    = messages.MethodNotAllowed
	parseJSON           = messages.ParseJSON
	genaiTree           = messages.GenaiTree
	orEmpty             = messages.OrEmpty
)

// Of package kit, used by the session and event lists.
type createdWindow = kit.CreatedWindow

var parseCreatedWindow = kit.ParseCreatedWindow
