package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Transitional: the "ma" names this family's files use for the
// managed-agents wire helpers, which live in package kit (kit/wire.go).
// They go away as the files call kit directly.

const betaManagedAgents = kit.BetaManagedAgents

type maCreatedRange = kit.CreatedRange

var (
	maBetas          = kit.ManagedAgentsBetas
	maJoin           = kit.JoinPath
	maIndex          = kit.IndexPath
	maDecode         = kit.DecodeAt
	maKind           = kit.JSONKind
	maType           = kit.TypeAt
	maBadType        = kit.BadType
	maArray          = kit.ArrayAt
	maCount          = kit.CheckCount
	maStrings        = kit.StringsAt
	maInt32Min       = kit.Int32Min
	maOneOf          = kit.OneOf
	maMetadataCreate = kit.MetadataCreate
	maMetadataPatch  = kit.MetadataPatch
	maStringPtr      = kit.StringPtr
	maCompact        = kit.CompactJSON
)

func maRequired[T any](path string, o optional[T]) error { return kit.Required(path, o) }

func maNotNull[T any](path string, o optional[T]) error { return kit.NotNull(path, o) }

var (
	clearableString = kit.ClearableString
	rawOrNil        = kit.RawOrNil
)
