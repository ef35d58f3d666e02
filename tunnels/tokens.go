package tunnels

import (
	"context"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// RevealToken returns the tunnel's connector token: POST
// /v1/tunnels/{tunnel_id}/reveal_token. Repeated calls return the same
// value until it is rotated. An archived tunnel's token is not revealed
// (409). The value is a credential: the Token prints as "[redacted]", and
// the SDK's debug log and spans never carry it.
func (s *Service) RevealToken(ctx context.Context, tunnelID string, opts ...option.Option) (*Token, error) {
	req := s.request(http.MethodPost, "/{tunnel_id}/reveal_token", tunnelID)
	req.Op = "tunnels.reveal_token" // the route alone would say tunnels.reveal_token.create
	return pipeline.Do[Token](ctx, s.p, req, opts)
}

// RotateTokenParams is the body of RotateToken.
type RotateTokenParams struct {
	// Reason is an optional free-text reason, 1 to 1000 characters.
	Reason string `json:"reason,omitzero"`
}

// RotateToken replaces the tunnel's connector token and returns the new
// one: POST /v1/tunnels/{tunnel_id}/rotate_token. The old value opens no
// new connection; established ones are not cut. A connector restarted
// afterwards needs the new value.
func (s *Service) RotateToken(ctx context.Context, tunnelID string, params RotateTokenParams, opts ...option.Option) (*Token, error) {
	if err := check.OptionalLength("reason", params.Reason, 1, maxRotateReason); err != nil {
		return nil, err
	}
	req := s.request(http.MethodPost, "/{tunnel_id}/rotate_token", tunnelID)
	req.Op = "tunnels.rotate_token"
	req.Body = &params
	return pipeline.Do[Token](ctx, s.p, req, opts)
}

const maxRotateReason = 1000
