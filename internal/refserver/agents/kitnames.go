package agents

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
	errInvalidRequest = kit.ErrInvalidRequest
	cursorPrefix      = kit.CursorPrefix
)

var (
	checkLength           = kit.CheckLength
	queryInt              = kit.QueryInt
	queryBool             = kit.QueryBool
	queryValue            = kit.QueryValue
	decodeCursor          = kit.DecodeCursor
	parseCursorPageParams = kit.ParseCursorPageParams
	optionalTimestamp     = kit.OptionalTimestamp
	invalidField          = kit.InvalidField
	stateConflict         = kit.StateConflict
	notFound              = kit.NotFound
	writeJSON             = kit.WriteJSON
)

func paginateByCursor[T any](all []T, pos func(T) position, keep func(T) bool, p cursorPageParams) cursorPage[T] {
	return kit.PaginateByCursor(all, pos, keep, p)
}

func newestFirst[T any](pos func(T) position) func(a, b T) int { return kit.NewestFirst(pos) }

func mapCursorPage[T, U any](p cursorPage[T], view func(T) U) cursorPage[U] {
	return kit.MapCursorPage(p, view)
}

const betaManagedAgents = kit.BetaManagedAgents

type maCreatedRange = kit.CreatedRange

var (
	maBetas             = kit.ManagedAgentsBetas
	maJoin              = kit.JoinPath
	maIndex             = kit.IndexPath
	maDecode            = kit.DecodeAt
	maKind              = kit.JSONKind
	maIsNull            = kit.IsNull
	maType              = kit.TypeAt
	maBadType           = kit.BadType
	maArray             = kit.ArrayAt
	maCount             = kit.CheckCount
	maStrings           = kit.StringsAt
	maInt32Min          = kit.Int32Min
	maOneOf             = kit.OneOf
	maMetadataCreate    = kit.MetadataCreate
	maMetadataPatch     = kit.MetadataPatch
	maParseCreatedRange = kit.ParseCreatedRange
	maStringPtr         = kit.StringPtr
	maCompact           = kit.CompactJSON
)

func maRequired[T any](path string, o optional[T]) error { return kit.Required(path, o) }

func maNotNull[T any](path string, o optional[T]) error { return kit.NotNull(path, o) }

func maSortedKeys[V any](m map[string]V) []string { return kit.SortedKeys(m) }

var (
	clearableString = kit.ClearableString
	rawOrNil        = kit.RawOrNil
)

func mapSlice[T, U any](in []T, f func(T) U) []U { return kit.MapSlice(in, f) }
