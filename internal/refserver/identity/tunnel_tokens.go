package identity

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// A tunnel's connector token (docs/api-choices.md "Tunnels"): a secret the
// connector presents, shown only by reveal_token and rotate_token, never
// in a tunnel object. Both are POST so that the value stays out of access
// logs of GET URLs.

// tunnelTokenPrefix starts every connector token value.
const tunnelTokenPrefix = "vtnl-"

// maxRotateReason bounds rotate_token's free-text reason.
const maxRotateReason = 1000

type tunnelToken struct {
	id    string // "tnltok_…": changes with the value
	value string
}

type tunnelTokenJSON struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	TunnelToken string `json:"tunnel_token"`
}

func (tk tunnelToken) view() tunnelTokenJSON {
	return tunnelTokenJSON{Type: "tunnel_token", ID: tk.id, TunnelToken: tk.value}
}

// newTunnelToken draws a token. Its value comes from crypto/rand, even
// with SequentialIDs: nothing should be able to predict a credential.
func (s *Service) newTunnelToken() tunnelToken {
	var b [32]byte
	rand.Read(b[:])
	return tunnelToken{id: s.cfg.ids("tnltok_"), value: tunnelTokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])}
}

// activeTunnelLocked is the path's tunnel, which must not be archived: an
// archived tunnel carries no traffic, so its token and certificates are
// frozen (409).
func (s *Service) activeTunnelLocked(c *kit.Call) (*tunnel, error) {
	t, err := s.tunnelInWorkspaceLocked(c)
	if err != nil {
		return nil, err
	}
	if t.archived() {
		return nil, kit.StateConflict("tunnel `%s` is archived", t.id)
	}
	return t, nil
}

func (s *Service) revealTunnelToken(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.activeTunnelLocked(c)
	if err != nil {
		return err
	}
	return c.OK(t.token.view())
}

type rotateTokenBody struct {
	Reason kit.Optional[string] `json:"reason"`
}

// rotateTunnelToken replaces the token: the old value no longer opens new
// connections. The reason is checked and then dropped (the reference
// server keeps no audit log).
func (s *Service) rotateTunnelToken(c *kit.Call) error {
	var body rotateTokenBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.Reason.Present() {
		if err := kit.CheckLength("reason", body.Reason.Value, 1, maxRotateReason); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.activeTunnelLocked(c)
	if err != nil {
		return err
	}
	t.token = s.newTunnelToken()
	return c.OK(t.token.view())
}
