package agentplatform

import (
	"context"
	"net/http"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/skills"
	"github.com/agentplatform/agentplatform-go/tunnels"
	"github.com/agentplatform/agentplatform-go/vaults"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// Version is this SDK's version; it is sent in the User-Agent header.
const Version = pipeline.Version

// Client is the entry point to the API. It is safe for concurrent use; create
// one and share it.
type Client struct {
	Agents       *agents.Service       // versioned agent definitions
	Environments *environments.Service // where sessions run
	Sessions     *sessions.Service     // running conversations and their resources
	Deployments  *deployments.Service  // agents started by hand or on a schedule, and their runs
	MemoryStores *memorystores.Service // stores of memories that sessions mount
	Files        *files.Service        // stored files that sessions mount and Messages name
	Vaults       *vaults.Service       // credentials that sessions use on the agent's behalf
	Skills       *skills.Service       // custom skills and their versions
	Models       *models.Service       // the model catalogue
	Workspaces   *workspaces.Service   // organization workspaces (admin API)
	APIKeys      *apikeys.Service      // organization API keys (admin API)
	Tunnels      *tunnels.Service      // tunnels (research preview)
	Messages     *messages.Service     // Messages and token counting
	Chat         *chat.Service         // chat completions (the OpenAI-compatible endpoint)

	pipeline *pipeline.Pipeline
}

// NewClient returns a client configured from the environment
// (VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID) and then opts. It
// sends nothing; a missing credential is reported by the first call.
func NewClient(opts ...option.Option) (*Client, error) {
	p, err := pipeline.New(opts)
	if err != nil {
		return nil, err
	}
	shared := pipeline.Share(p)
	return &Client{
		Agents:       agents.NewService(shared),
		Environments: environments.NewService(shared),
		Sessions:     sessions.NewService(shared),
		Deployments:  deployments.NewService(shared),
		MemoryStores: memorystores.NewService(shared),
		Files:        files.NewService(shared),
		Vaults:       vaults.NewService(shared),
		Skills:       skills.NewService(shared),
		Models:       models.NewService(shared),
		Workspaces:   workspaces.NewService(shared),
		APIKeys:      apikeys.NewService(shared),
		Tunnels:      tunnels.NewService(shared),
		Messages:     messages.NewService(shared),
		Chat:         chat.NewService(shared),
		pipeline:     p,
	}, nil
}

// Close releases the idle connections of the client's own transport. Calls
// in flight are not interrupted; cancel their contexts for that. A client
// given its own HTTP client (option.WithHTTPClient) leaves it alone.
func (c *Client) Close() error {
	c.pipeline.Close()
	return nil
}

// Execute calls an endpoint the SDK does not know yet, through the same
// pipeline as every method: the client's credentials and headers, retries
// (a POST carries one Idempotency-Key over all its attempts), tracing, the
// response size limit and the same typed errors. method is an upper-case
// HTTP method; a beta value the endpoint requires is given with
// option.WithBeta, query parameters with option.WithQuery.
//
// path is relative to the base URL ("/v1/things/thing_123") and escaped
// (url.PathEscape each id); it is refused before anything is sent, with an
// *apierror.ValidationError, unless it starts with "/" and has no empty,
// "." or ".." segment, query, fragment or unescaped character.
//
// body is sent as JSON: nil sends none; a json.RawMessage or []byte is sent
// as it is and must be valid JSON; anything else is marshalled with
// encoding/json (an io.Reader is refused).
//
// result receives a successful response: nil discards the body, a *[]byte
// gets it as it is, any other pointer is decoded from JSON (a
// map[string]any, a struct of your own); an empty body leaves it as it
// was. A status of 400 or above is an *apierror.Error; a body that does not
// decode, an *apierror.ResponseError.
//
// The call's span is named "vendor.request" whatever the path, since ids in
// the path would otherwise give one span name per object; url.path and
// http.request.method say what was called, and http.route is absent.
func (c *Client) Execute(ctx context.Context, method, path string, body, result any, opts ...option.Option) error {
	return pipeline.Into(ctx, c.pipeline, pipeline.NewRawRequest(method, path, body), result, opts)
}

// ExecuteStream calls an endpoint that answers with an event stream
// (text/event-stream), as Execute does, and returns the response with its
// body unread: read the server-sent events from it, and close it. Retries
// cover only getting the response headers, and a POST carries no
// Idempotency-Key, as for every stream. A 2xx answer that is not an event
// stream is an error. The span, "vendor.request", ends when the body is
// closed: OK once it was read to its end, unset when closed before, ERROR
// when a read failed; an error event in the stream is the application's
// to notice.
func (c *Client) ExecuteStream(ctx context.Context, method, path string, body any, opts ...option.Option) (*http.Response, error) {
	return pipeline.RawStream(ctx, c.pipeline, pipeline.NewRawRequest(method, path, body), opts)
}
