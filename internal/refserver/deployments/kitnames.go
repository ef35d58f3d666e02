package deployments

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
	apiError         = kit.APIError
	timestamp        = kit.Timestamp
	position         = kit.Position
	cursorPageParams = kit.CursorPageParams

	optional[T any]   = kit.Optional[T]
	cursorPage[T any] = kit.CursorPage[T]
)

const errInvalidRequest = kit.ErrInvalidRequest

var (
	checkLength           = kit.CheckLength
	queryBool             = kit.QueryBool
	queryValue            = kit.QueryValue
	parseCursorPageParams = kit.ParseCursorPageParams
	parseCreatedWindow    = kit.ParseCreatedWindow
	optionalTimestamp     = kit.OptionalTimestamp
	invalidField          = kit.InvalidField
	stateConflict         = kit.StateConflict
	notFound              = kit.NotFound

	maBetas             = kit.ManagedAgentsBetas
	maJoin              = kit.JoinPath
	maDecode            = kit.DecodeAt
	maType              = kit.TypeAt
	maBadType           = kit.BadType
	maOneOf             = kit.OneOf
	maMetadataCreate    = kit.MetadataCreate
	maMetadataPatch     = kit.MetadataPatch
	maParseCreatedRange = kit.ParseCreatedRange
)

func maRequired[T any](path string, o optional[T]) error { return kit.Required(path, o) }

func maNotNull[T any](path string, o optional[T]) error { return kit.NotNull(path, o) }

func paginateByCursor[T any](all []T, pos func(T) position, keep func(T) bool, p cursorPageParams) cursorPage[T] {
	return kit.PaginateByCursor(all, pos, keep, p)
}

func newestFirst[T any](pos func(T) position) func(a, b T) int { return kit.NewestFirst(pos) }

func mapCursorPage[T, U any](p cursorPage[T], view func(T) U) cursorPage[U] {
	return kit.MapCursorPage(p, view)
}
