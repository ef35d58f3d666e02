package identity

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Workspaces: the admin API under /v1/organizations/workspaces
// (docs/api-choices.md "Workspaces"). Workspaces belong to the organization, not to the workspace the
// request runs in.

func (s *Service) workspaceRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/organizations/workspaces", Op: "organizations.workspaces.create", Handle: s.createWorkspace},
		{Method: http.MethodGet, Path: "/v1/organizations/workspaces", Op: "organizations.workspaces.list", Handle: s.listWorkspaces},
		{Method: http.MethodGet, Path: "/v1/organizations/workspaces/{workspace_id}", Op: "organizations.workspaces.retrieve", Handle: s.getWorkspace},
		{Method: http.MethodPost, Path: "/v1/organizations/workspaces/{workspace_id}", Op: "organizations.workspaces.update", Handle: s.updateWorkspace},
		{Method: http.MethodPost, Path: "/v1/organizations/workspaces/{workspace_id}/archive", Op: "organizations.workspaces.archive", Handle: s.archiveWorkspace},
	}
}

// workspaceBody is the body of create and update.
type workspaceBody struct {
	Name          kit.Optional[string]            `json:"name"`
	DisplayColor  kit.Optional[string]            `json:"display_color"`
	DataResidency kit.Optional[dataResidencyBody] `json:"data_residency"`
	ExternalKeyID kit.Optional[string]            `json:"external_key_id"`
	Tags          kit.Optional[map[string]string] `json:"tags"`
	UserProfileID kit.Optional[string]            `json:"user_profile_id"`
}

func (s *Service) createWorkspace(c *kit.Call) error {
	var body workspaceBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if !body.Name.Present() {
		return kit.InvalidField("name", "is required")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Validate against a draft so that a rejected request stores nothing.
	draft := workspace{residency: defaultResidency(), tags: map[string]string{}}
	if err := s.applyWorkspaceBody(&draft, body, true); err != nil {
		return err
	}
	ws := s.newWorkspaceLocked(draft.name, false)
	ws.residency, ws.externalKeyID, ws.tags = draft.residency, draft.externalKeyID, draft.tags
	ws.userProfileID = draft.userProfileID
	if draft.displayColor != "" {
		ws.displayColor = draft.displayColor
	}
	return c.OK(ws.view())
}

func (s *Service) updateWorkspace(c *kit.Call) error {
	var body workspaceBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	id := c.R.PathValue("workspace_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, ok := s.workspaces[id]
	if !ok {
		return workspaceNotFound(id)
	}
	if ws.archived() {
		return kit.StateConflict("Workspace `%s` is archived and cannot be updated.", id)
	}
	draft := *ws
	draft.tags = maps.Clone(ws.tags)
	if err := s.applyWorkspaceBody(&draft, body, false); err != nil {
		return err
	}
	*ws = draft
	return c.OK(ws.view())
}

// applyWorkspaceBody applies the fields a body sets to w, checking each
// rule. Omitted and null fields keep their value, except external_key_id,
// whose null asks to detach the key.
func (s *Service) applyWorkspaceBody(w *workspace, body workspaceBody, creating bool) error {
	if body.Name.Present() {
		if err := kit.CheckLength("name", body.Name.Value, 1, 255); err != nil {
			return err
		}
		w.name = body.Name.Value
	}
	if body.DisplayColor.Present() {
		if err := checkDisplayColor(body.DisplayColor.Value); err != nil {
			return err
		}
		w.displayColor = body.DisplayColor.Value
	}
	if body.DataResidency.Present() {
		residency, err := applyResidency(w.residency, body.DataResidency.Value, creating)
		if err != nil {
			return err
		}
		w.residency = residency
	}
	if body.ExternalKeyID.Set {
		if err := s.setExternalKeyID(w, body.ExternalKeyID); err != nil {
			return err
		}
	}
	if err := setUserProfileID(w, body.UserProfileID); err != nil {
		return err
	}
	if body.Tags.Present() {
		if err := checkTags(body.Tags.Value); err != nil {
			return err
		}
		w.tags = body.Tags.Value
	}
	return nil
}

// setExternalKeyID enforces write-once: once attached, a key can be neither
// replaced nor detached; sending the same value again is accepted.
func (s *Service) setExternalKeyID(w *workspace, v kit.Optional[string]) error {
	if v.Null {
		if w.externalKeyID != "" {
			return kit.InvalidField("external_key_id", "is write-once and cannot be detached once set")
		}
		return nil
	}
	if err := s.checkExternalKeyID(v.Value); err != nil {
		return err
	}
	if w.externalKeyID != "" && w.externalKeyID != v.Value {
		return kit.InvalidField("external_key_id", "is write-once and cannot be replaced once set")
	}
	w.externalKeyID = v.Value
	return nil
}

func (s *Service) getWorkspace(c *kit.Call) error {
	id := c.R.PathValue("workspace_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, ok := s.workspaces[id]
	if !ok {
		return workspaceNotFound(id)
	}
	return c.OK(ws.view())
}

func (s *Service) archiveWorkspace(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.archiveWorkspaceLocked(c.R.PathValue("workspace_id"))
	if err != nil {
		return err
	}
	return c.OK(ws.view())
}

// archiveWorkspaceLocked archives one-way and idempotently; the default
// workspace cannot be archived.
func (s *Service) archiveWorkspaceLocked(id string) (*workspace, error) {
	ws, ok := s.workspaces[id]
	if !ok {
		return nil, workspaceNotFound(id)
	}
	if ws.isDefault {
		return nil, kit.InvalidRequest("Workspace `%s` is the default workspace and cannot be archived.", id)
	}
	if !ws.archived() {
		ws.archivedAt = s.now()
	}
	return ws, nil
}

func (s *Service) listWorkspaces(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseIDPageParams(q)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	includeDefault, err := kit.QueryBool(q, "include_default")
	if err != nil {
		return err
	}
	only, err := workspaceIDsFilter(q)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.workspaces), workspaceListOrder)
	keep := func(w *workspace) bool {
		return (includeArchived || !w.archived()) && (includeDefault || !w.isDefault) &&
			(only == nil || only[w.id])
	}
	page, perr := kit.PaginateByID(all, func(w *workspace) string { return w.id }, keep, p)
	if perr != nil {
		return perr
	}
	return c.OK(kit.MapIDPage(page, (*workspace).view))
}

// listMaxWorkspaceIDs bounds the ids filter of the workspace list.
const listMaxWorkspaceIDs = 100

// workspaceIDsFilter reads the ids filter, sent as repeated ids[] (the
// official clients' form) or ids: nil when absent. Ids of workspaces that
// do not exist are not an error; they match nothing.
func workspaceIDsFilter(q url.Values) (map[string]bool, error) {
	ids := append(slices.Clone(q["ids"]), q["ids[]"]...)
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) > listMaxWorkspaceIDs {
		return nil, kit.InvalidField("ids", "must have at most %d values", listMaxWorkspaceIDs)
	}
	only := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !strings.HasPrefix(id, "wrkspc_") || len(id) == len("wrkspc_") {
			return nil, kit.InvalidField("ids", "`%s` is not a workspace id (`wrkspc_…`)", id)
		}
		only[id] = true
	}
	return only, nil
}

// workspaceListOrder is newest first, with the default workspace last
// (docs/api-choices.md, "Ordering").
func workspaceListOrder(a, b *workspace) int {
	if a.isDefault != b.isDefault {
		if a.isDefault {
			return 1
		}
		return -1
	}
	return kit.NewestFirst((*workspace).position)(a, b)
}
