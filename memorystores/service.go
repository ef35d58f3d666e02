package memorystores

import "github.com/agentplatform/agentplatform-go/internal/pipeline"

// Beta is the vendor-beta value these endpoints require; the SDK sends it.
const Beta = "agent-memory-2026-07-22"

// Service calls the memorystores endpoints. Get one from agentplatform.Client.MemoryStores.
type Service struct{ p *pipeline.Pipeline }

// NewService is used by agentplatform.NewClient.
func NewService(p *pipeline.Pipeline) *Service { return &Service{p: p} }
