package messages

import (
	"net/http"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// PingInterval is how long a stream may stay silent before a
	// keep-alive.
	PingInterval time.Duration
	// ThinkingKey signs thinking blocks; empty: 32 random bytes.
	ThinkingKey []byte
	// Tracer, when set, makes vendor.messages.create emit its model-attempt
	// and tool spans under the request span; Content adds message content.
	Tracer  trace.Tracer
	Content bool
	// Residency is a workspace's data residency: its default inference geo,
	// the geos it allows (nil: any), and whether the workspace exists.
	Residency func(workspaceID string) (defaultGeo string, allowed []string, ok bool)
}

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	clock        kit.Clock
	ids          kit.IDSource
	pingInterval time.Duration
	thinkingKey  []byte
}

// Service is the Messages family: its routes and the fake model's state
// (prompt cache, containers, thinking key, clock waits).
type Service struct {
	cfg      config
	deps     Deps
	trace    *msgTracing // nil without a Tracer
	mu       sync.Mutex  // guards messages
	messages messageState
	batches  batchState // Message Batches (batches.go)
}

// msgTracing is the family's span settings.
type msgTracing struct {
	tracer  trace.Tracer
	content bool
}

// New returns the family's service.
func New(d Deps) *Service {
	s := &Service{
		cfg:  config{clock: d.Clock, ids: d.IDs, pingInterval: d.PingInterval, thinkingKey: d.ThinkingKey},
		deps: d,
	}
	if d.Tracer != nil {
		s.trace = &msgTracing{tracer: d.Tracer, content: d.Content}
	}
	return s
}

// Routes are the family's endpoints: Messages, count_tokens, chat
// completions, the models list and Message Batches.
func (s *Service) Routes() []kit.Route {
	return withUserProfile(append(append(s.messageRoutes(), s.modelRoutes()...), s.batchRoutes()...))
}

// now is the server clock as the wire carries it.
func (s *Service) now() time.Time { return s.deps.Now() }

// ClockWaiting reports whether a delay directive has started waiting on
// the server's ManualClock since the clock last moved: its deadline is
// set, and the next Advance wakes it. Tests synchronise on it.
func (s *Service) ClockWaiting() bool {
	st := &s.messages
	st.clockMu.Lock()
	defer st.clockMu.Unlock()
	return st.clockWake != nil
}

// Exported for the server: the paths and the operation it treats specially.
const (
	PathMessages        = pathMessages
	PathCountTokens     = pathCountTokens
	PathChatCompletions = pathChatCompletions
	// OpCreate is the one operation whose span needs an authenticated
	// request.
	OpCreate = opMessagesCreate
)

// opMessagesCreate names the SERVER span of POST /v1/messages.
const opMessagesCreate = "messages.create"

// BodyStreams reports whether a body asks for a stream ("stream": true).
func BodyStreams(body []byte) bool { return bodyStreams(body) }

// MarkChatCompletions gives every response on the chat-completions path
// its openai-version header and the OpenAI error shape, from
// authentication failures and injected faults to validation.
func MarkChatCompletions(r *http.Request, rb *kit.ResponseBuffer) { markChatCompletions(r, rb) }

// MethodNotAllowed is the 405 of a POST-only path.
func MethodNotAllowed(c *kit.Call) error { return methodNotAllowed(c) }

// JSON is a parsed JSON value that keeps members in body order and numbers
// as written (see parseJSON).
type JSON = jnode

// ParseJSON parses one JSON value.
func ParseJSON(data []byte) (*JSON, error) { return parseJSON(data) }

// GenaiTree is n as a genai tree, members in order; nil for no node.
func GenaiTree(n *JSON) any { return genaiTree(n) }

// OrEmpty is n, or an empty object when n is null or missing.
func OrEmpty(n *JSON) *JSON { return orEmpty(n) }

// Get is the last member named key of an object, nil otherwise.
func (n *jnode) Get(key string) *jnode { return n.get(key) }
