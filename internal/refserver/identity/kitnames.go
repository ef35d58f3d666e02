package identity

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// The names these files used while they were in package refserver, for
// what now lives in packages kit and messages. They keep the move
// mechanical (and merges with edits made meanwhile easy); they go away as
// the files switch to kit.X.

type (
	call             = kit.Call
	route            = kit.Route
	apiError         = kit.APIError
	timestamp        = kit.Timestamp
	position         = kit.Position
	cursorPageParams = kit.CursorPageParams

	optional[T any]   = kit.Optional[T]
	cursorPage[T any] = kit.CursorPage[T]
)

const (
	errInvalidRequest = kit.ErrInvalidRequest
	errPermission     = kit.ErrPermission

	headerWorkspaceID = kit.HeaderWorkspaceID
	betaMCPTunnels    = kit.BetaMCPTunnels
)

var (
	describeDecodeError   = kit.DescribeDecodeError
	checkLength           = kit.CheckLength
	queryBool             = kit.QueryBool
	queryValue            = kit.QueryValue
	quoteList             = kit.QuoteList
	parseIDPageParams     = kit.ParseIDPageParams
	parseCursorPageParams = kit.ParseCursorPageParams
	optionalTimestamp     = kit.OptionalTimestamp
	newAPIError           = kit.NewAPIError
	invalidField          = kit.InvalidField
	invalidRequest        = kit.InvalidRequest
	stateConflict         = kit.StateConflict
	notFound              = kit.NotFound
	unauthenticated       = kit.Unauthenticated
	checkVersion          = kit.CheckVersion
	parseBetas            = kit.ParseBetas
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

// Of package messages: the routes the narrow access-token scopes allow.
const (
	pathMessages        = messages.PathMessages
	pathCountTokens     = messages.PathCountTokens
	pathChatCompletions = messages.PathChatCompletions
)

var methodNotAllowed = messages.MethodNotAllowed
