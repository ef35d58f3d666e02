package deployments

import (
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// beta is the vendor-beta value these endpoints require; the SDK sends it
// on every call.
const beta = "managed-agents-2026-04-01"

// Service calls the deployments endpoints. Get one from
// agentplatform.Client.Deployments.
//
// The runs a deployment leaves behind are a collection of their own on the
// wire (/v1/deployment_runs); their methods sit on the Runs sub-service.
// Starting a run is a deployment operation, Service.RunNow.
type Service struct {
	p *pipeline.Pipeline

	Runs *RunsService // the record of every execution
}

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Deployments
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Runs: &RunsService{p: p}}
}

// RunsService calls the deployment run endpoints. Get one from
// agentplatform.Client.Deployments.Runs.
type RunsService struct{ p *pipeline.Pipeline }

// newRequest starts a request that carries beta: every endpoint of this
// package requires it.
func newRequest(method, route string, params ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, route, params...)
	req.Beta = beta
	return req
}
