package sessions

import "github.com/agentplatform/agentplatform-go/internal/pipeline"

// Beta is the vendor-beta value these endpoints require; the SDK sends it.
const Beta = "managed-agents-2026-04-01"

// Service calls the sessions endpoints. Get one from agentplatform.Client.Sessions.
type Service struct{ p *pipeline.Pipeline }

// NewService is used by agentplatform.NewClient.
func NewService(p *pipeline.Pipeline) *Service { return &Service{p: p} }
