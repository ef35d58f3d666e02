package identity

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The names these files used while they were in package refserver, for
// what now lives in package kit. They keep the move mechanical (and merges
// with edits made meanwhile easy); they go away as the files switch to
// kit.X.

type (
	call             = kit.Call
	route            = kit.Route
	timestamp        = kit.Timestamp
	position         = kit.Position
	cursorPageParams = kit.CursorPageParams

	optional[T any]   = kit.Optional[T]
	cursorPage[T any] = kit.CursorPage[T]
)

const (
	betaMCPTunnels = kit.BetaMCPTunnels
)

var (
	checkLength           = kit.CheckLength
	queryBool             = kit.QueryBool
	parseCursorPageParams = kit.ParseCursorPageParams
	optionalTimestamp     = kit.OptionalTimestamp
	notFound              = kit.NotFound
)

func paginateByCursor[T any](all []T, pos func(T) position, keep func(T) bool, p cursorPageParams) cursorPage[T] {
	return kit.PaginateByCursor(all, pos, keep, p)
}

func newestFirst[T any](pos func(T) position) func(a, b T) int { return kit.NewestFirst(pos) }

func mapCursorPage[T, U any](p cursorPage[T], view func(T) U) cursorPage[U] {
	return kit.MapCursorPage(p, view)
}
