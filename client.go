package agentplatform

import (
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tunnels"
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
	Models       *models.Service       // the model catalogue
	Workspaces   *workspaces.Service   // organization workspaces (admin API)
	APIKeys      *apikeys.Service      // organization API keys (admin API)
	Tunnels      *tunnels.Service      // tunnels (research preview)
	Messages     *messages.Service     // Messages, token counting and chat completions

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
	return &Client{
		Agents:       agents.NewService(p),
		Environments: environments.NewService(p),
		Sessions:     sessions.NewService(p),
		Deployments:  deployments.NewService(p),
		MemoryStores: memorystores.NewService(p),
		Models:       models.NewService(p),
		Workspaces:   workspaces.NewService(p),
		APIKeys:      apikeys.NewService(p),
		Tunnels:      tunnels.NewService(p),
		Messages:     messages.NewService(p),
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
