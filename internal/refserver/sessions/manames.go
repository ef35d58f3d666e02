package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Transitional: the "ma" names the families still in this package use for
// the managed-agents wire helpers, which live in package kit (kit/wire.go).
// They go away with the last family here that uses them.

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
