package messages

import (
	"context"
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// Beta values the SDK sends by itself when a request uses their feature
// (docs/messages-wire.md 7), merged with the caller's option.WithBeta
// values: nobody needs to name them.
const (
	betaMCPClient = "mcp-client-2025-11-20"
	betaFallback  = "server-side-fallback-2026-07-01"
	betaFiles     = "files-api-2025-04-14"
)

// Service calls the Messages endpoints. Get one from
// agentplatform.Client.Messages.
type Service struct {
	p *pipeline.Pipeline
	// Batches calls the Message Batches endpoints.
	Batches *BatchesService
}

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Messages
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Batches: &BatchesService{p: p}}
}

// Create runs the model and returns its message: POST /v1/messages.
// params is checked locally first, by the rules of the API version the
// call is sent with (option.WithVersion); a broken rule returns an
// *apierror.ValidationError and nothing is sent.
func (s *Service) Create(ctx context.Context, params MessageParams, opts ...option.Option) (*Message, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/messages")
	req.Beta = betas(params.Messages, params.MCPServers, params.Fallbacks)
	req.Body = body{p: &params} // its AnnotateSpan records the request attributes
	req.Result = createResult
	return pipeline.Do[Message](ctx, s.p, req, opts)
}

// CountTokens counts the input tokens of a request without running it:
// POST /v1/messages/count_tokens. The count is the total input Create
// would report (uncached, written and read together). params is checked
// locally first, as in Create.
func (s *Service) CountTokens(ctx context.Context, params CountTokensParams, opts ...option.Option) (*TokenCount, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/messages/count_tokens")
	req.Beta = betas(params.Messages, params.MCPServers, nil)
	req.Body = (*countTokensBody)(&params) // the same JSON, and AnnotateSpan
	req.Result = countTokensResult
	return pipeline.Do[TokenCount](ctx, s.p, req, opts)
}

// betas returns the beta values the request's features need, comma
// separated.
func betas(msgs []MessageParam, servers []MCPServer, fallbacks Fallbacks) string {
	var vals []string
	if len(servers) > 0 {
		vals = append(vals, betaMCPClient)
	}
	if fallbacks != nil {
		vals = append(vals, betaFallback)
	}
	if usesFiles(msgs) {
		vals = append(vals, betaFiles)
	}
	return strings.Join(vals, ",")
}

// usesFiles reports whether a block of msgs has a file source.
func usesFiles(msgs []MessageParam) bool {
	for _, m := range msgs {
		if blocks, ok := m.Content.(Blocks); ok && blocksUseFiles(blocks) {
			return true
		}
	}
	return false
}

func blocksUseFiles(blocks []ContentBlock) bool {
	for _, b := range blocks {
		switch b := b.(type) {
		case ImageBlock:
			if _, ok := b.Source.(FileSource); ok {
				return true
			}
		case DocumentBlock:
			if _, ok := b.Source.(FileSource); ok {
				return true
			}
			if cs, ok := b.Source.(ContentSource); ok {
				if inner, ok := cs.Content.(Blocks); ok && blocksUseFiles(inner) {
					return true
				}
			}
		case ToolResultBlock:
			if inner, ok := b.Content.(Blocks); ok && blocksUseFiles(inner) {
				return true
			}
		}
	}
	return false
}
