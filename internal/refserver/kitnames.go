package refserver

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// Transitional: the old names the pipeline (middleware.go) and the
// server's own tests use for what lives in packages kit, spans and
// messages. Every family has its own package now; these go away once the
// façade calls kit, spans and messages directly.

type (
	call      = kit.Call
	route     = kit.Route
	exchange  = kit.Exchange
	errorBody = kit.ErrorBody
)

const (
	errAPI            = kit.ErrAPI
	headerWorkspaceID = kit.HeaderWorkspaceID
)

var (
	newAPIError  = kit.NewAPIError
	notFound     = kit.NotFound
	writeError   = kit.WriteError
	checkVersion = kit.CheckVersion
	parseBetas   = kit.ParseBetas
)

// Of package spans.
type serverTracing = spans.Tracing

// Of package messages.
const (
	pathMessages        = messages.PathMessages
	pathChatCompletions = messages.PathChatCompletions
	opMessagesCreate    = messages.OpCreate
)

var (
	bodyStreams         = messages.BodyStreams
	markChatCompletions = messages.MarkChatCompletions
)
