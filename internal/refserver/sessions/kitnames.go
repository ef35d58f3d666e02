package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// Transitional: the names this family's files used, in the server's
// package, for what lives in packages kit, spans and messages. They kept
// the move mechanical (and merges with edits made meanwhile easy); they
// go away as the files call kit, spans and messages directly.

type (
	call      = kit.Call
	route     = kit.Route
	timestamp = kit.Timestamp
	position  = kit.Position

	optional[T any]   = kit.Optional[T]
	cursorPage[T any] = kit.CursorPage[T]
)

const (
	errInvalidRequest = kit.ErrInvalidRequest

	timestampLayout = kit.TimestampLayout
	cursorPrefix    = kit.CursorPrefix
)

var (
	checkLength       = kit.CheckLength
	queryInt          = kit.QueryInt
	queryBool         = kit.QueryBool
	queryValue        = kit.QueryValue
	decodeCursor      = kit.DecodeCursor
	optionalTimestamp = kit.OptionalTimestamp
	invalidField      = kit.InvalidField
	stateConflict     = kit.StateConflict
	notFound          = kit.NotFound
)

func newestFirst[T any](pos func(T) position) func(a, b T) int { return kit.NewestFirst(pos) }

func mapSlice[T, U any](in []T, f func(T) U) []U { return kit.MapSlice(in, f) }

// Of package spans.
type (
	spanOutcome  = spans.Outcome
	contentAttrs = spans.Content
)

const toolErrorType = spans.ToolErrorType

var (
	endWith   = spans.End
	recording = spans.Recording
	toolAttrs = spans.ToolAttrs

	agentContent = spans.AgentContent
)

// Of package messages.
type jnode = messages.JSON

var (
	parseJSON = messages.ParseJSON
	genaiTree = messages.GenaiTree
	orEmpty   = messages.OrEmpty
)

// Of package kit, used by the session and event lists.
type createdWindow = kit.CreatedWindow

var parseCreatedWindow = kit.ParseCreatedWindow
