package identity

import (
	"crypto/sha256"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Tunnels (docs/api-choices.md "Tunnels"; research preview). A tunnel belongs to the
// workspace its create request ran in and is visible only from there.
//
// /v1/tunnels supersedes the admin endpoints under /v1/organizations/tunnels,
// which are served during the migration window: the same operations on the
// same tunnels, with the same records. Being admin endpoints (by their
// path), they take a key not scoped to a workspace, which names the
// workspace in vendor-workspace-id as every such key does; they predate the
// preview's beta value and do not require it.

func (s *Service) tunnelRoutes() []kit.Route {
	beta := []string{kit.BetaMCPTunnels}
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/tunnels", Op: "tunnels.create", Betas: beta, Handle: s.createTunnel},
		{Method: http.MethodGet, Path: "/v1/tunnels", Op: "tunnels.list", Betas: beta, Handle: s.listTunnels},
		{Method: http.MethodGet, Path: "/v1/tunnels/{tunnel_id}", Op: "tunnels.retrieve", Betas: beta, Handle: s.getTunnel},
		{Method: http.MethodPost, Path: "/v1/tunnels/{tunnel_id}/archive", Op: "tunnels.archive", Betas: beta, Handle: s.archiveTunnel},
		{Method: http.MethodPost, Path: "/v1/tunnels/{tunnel_id}/reveal_token", Op: "tunnels.reveal_token", Betas: beta, Handle: s.revealTunnelToken},
		{Method: http.MethodPost, Path: "/v1/tunnels/{tunnel_id}/rotate_token", Op: "tunnels.rotate_token", Betas: beta, Handle: s.rotateTunnelToken},
		{Method: http.MethodPost, Path: tunnelCertificates, Op: "tunnels.certificates.create", Betas: beta, Handle: s.createTunnelCertificate},
		{Method: http.MethodGet, Path: tunnelCertificates, Op: "tunnels.certificates.list", Betas: beta, Handle: s.listTunnelCertificates},
		{Method: http.MethodGet, Path: tunnelCertificates + "/{certificate_id}", Op: "tunnels.certificates.retrieve", Betas: beta, Handle: s.getTunnelCertificate},
		{Method: http.MethodPost, Path: tunnelCertificates + "/{certificate_id}/archive", Op: "tunnels.certificates.archive", Betas: beta, Handle: s.archiveTunnelCertificate},

		{Method: http.MethodPost, Path: "/v1/organizations/tunnels", Op: "organizations.tunnels.create", Handle: s.createTunnel},
		{Method: http.MethodGet, Path: "/v1/organizations/tunnels", Op: "organizations.tunnels.list", Handle: s.listTunnels},
		{Method: http.MethodGet, Path: "/v1/organizations/tunnels/{tunnel_id}", Op: "organizations.tunnels.retrieve", Handle: s.getTunnel},
		{Method: http.MethodPost, Path: "/v1/organizations/tunnels/{tunnel_id}/archive", Op: "organizations.tunnels.archive", Handle: s.archiveTunnel},
	}
}

type tunnel struct {
	id          string
	workspaceID string
	createdAt   time.Time
	archivedAt  time.Time // zero while active
	displayName *string
	domain      string
	// token is the connector token: its id changes with its value. The
	// server keeps the value (reveal returns it) and shows it only to
	// reveal and rotate (docs/api-choices.md "Tunnels").
	token tunnelToken
	certs []*tunnelCert // creation order
}

func (t *tunnel) archived() bool { return !t.archivedAt.IsZero() }

func (t *tunnel) position() kit.Position { return kit.Position{CreatedAt: t.createdAt, ID: t.id} }

type tunnelJSON struct {
	Type        string         `json:"type"`
	ID          string         `json:"id"`
	ArchivedAt  *kit.Timestamp `json:"archived_at"`
	CreatedAt   kit.Timestamp  `json:"created_at"`
	DisplayName *string        `json:"display_name"`
	Domain      string         `json:"domain"`
}

func (t *tunnel) view() tunnelJSON {
	return tunnelJSON{
		Type:        "tunnel",
		ID:          t.id,
		ArchivedAt:  kit.OptionalTimestamp(t.archivedAt),
		CreatedAt:   kit.Timestamp(t.createdAt),
		DisplayName: t.displayName,
		Domain:      t.domain,
	}
}

type tunnelCreateBody struct {
	DisplayName kit.Optional[string] `json:"display_name"`
}

func (s *Service) createTunnel(c *kit.Call) error {
	var body tunnelCreateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	t := &tunnel{workspaceID: c.WorkspaceID, createdAt: c.Now()}
	if body.DisplayName.Present() {
		if err := kit.CheckLength("display_name", body.DisplayName.Value, 1, 255); err != nil {
			return err
		}
		name := body.DisplayName.Value
		t.displayName = &name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.id = s.cfg.ids("tnl_")
	t.token = s.newTunnelToken()
	t.domain = tunnelDomain(t.id, 0)
	for attempt := 1; s.tunnelDomains[t.domain]; attempt++ {
		t.domain = tunnelDomain(t.id, attempt)
	}
	s.tunnelDomains[t.domain] = true
	s.tunnels[t.id] = t
	return c.OK(t.view())
}

func (s *Service) listTunnels(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseCursorPageParams(q, 1000)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.tunnels), kit.NewestFirst((*tunnel).position))
	keep := func(t *tunnel) bool {
		return t.workspaceID == c.WorkspaceID && (includeArchived || !t.archived())
	}
	page := kit.PaginateByCursor(all, (*tunnel).position, keep, p)
	return c.OK(kit.MapCursorPage(page, (*tunnel).view))
}

// tunnelInWorkspaceLocked finds a tunnel of the request's workspace; other
// workspaces' tunnels do not exist for it.
func (s *Service) tunnelInWorkspaceLocked(c *kit.Call) (*tunnel, error) {
	id := c.R.PathValue("tunnel_id")
	t, ok := s.tunnels[id]
	if !ok || t.workspaceID != c.WorkspaceID {
		return nil, kit.NotFound("Tunnel `%s` not found.", id)
	}
	return t, nil
}

func (s *Service) getTunnel(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.tunnelInWorkspaceLocked(c)
	if err != nil {
		return err
	}
	return c.OK(t.view())
}

func (s *Service) archiveTunnel(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.tunnelInWorkspaceLocked(c)
	if err != nil {
		return err
	}
	if !t.archived() {
		t.archivedAt = c.Now()
	}
	return c.OK(t.view())
}

const (
	tunnelDomainSuffix = ".tunnel.vendor.dev"
	tunnelLabelLen     = 12
	lowerAlnum         = "0123456789abcdefghijklmnopqrstuvwxyz"
)

// tunnelDomain derives a tunnel's hostname from its id (and an attempt number
// used only after a collision). Deriving it rather than drawing it keeps
// responses deterministic under SequentialIDs; ids are unique, so domains are.
func tunnelDomain(tunnelID string, attempt int) string {
	sum := sha256.Sum256([]byte(tunnelID + "#" + strconv.Itoa(attempt)))
	var label strings.Builder
	for _, b := range sum[:tunnelLabelLen] {
		label.WriteByte(lowerAlnum[int(b)%len(lowerAlnum)])
	}
	return label.String() + tunnelDomainSuffix
}
