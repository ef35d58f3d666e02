package vaults

import (
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// beta is the vendor-beta value every vault endpoint requires.
const beta = "managed-agents-2026-04-01"

// Service calls the vault endpoints. Get one from
// agentplatform.Client.Vaults.
type Service struct {
	p *pipeline.Pipeline

	Credentials *CredentialsService // the credentials inside a vault
}

// CredentialsService calls the credential endpoints. Get one from
// agentplatform.Client.Vaults.Credentials.
type CredentialsService struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Vaults
// is one already made. Options that fail make every call fail with their
// error.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Credentials: &CredentialsService{p: p}}
}

func newRequest(method, route string, params ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, route, params...)
	req.Beta = beta
	return req
}

// deleted is the answer to a delete, which only echoes the id.
type deleted struct{}
