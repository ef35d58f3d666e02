package identity

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The directory is the organization's membership: workspaces, users and
// service accounts, and who may use the API where (docs/api-choices.md
// "API keys"). Tests shape it
// with the exported methods below; the HTTP API only creates, updates and
// archives workspaces.

type workspace struct {
	id            string
	name          string
	createdAt     time.Time
	archivedAt    time.Time // zero while active
	compartmentID string
	residency     dataResidency
	displayColor  string
	externalKeyID string // "" = none (null on the wire)
	userProfileID string // "" = none (null on the wire); write-once
	tags          map[string]string
	isDefault     bool
}

func (w *workspace) archived() bool { return !w.archivedAt.IsZero() }

func (w *workspace) position() kit.Position { return kit.Position{CreatedAt: w.createdAt, ID: w.id} }

type user struct {
	id        string
	name      string
	removed   bool            // left the organization
	apiAccess map[string]bool // workspace ids where the user's role allows API use
}

type serviceAccount struct {
	id         string
	name       string
	archived   bool
	workspaces map[string]bool // workspaces it was added to; the default is implicit
}

// displayPalette is the fixed palette workspaces take their display_color
// from, in turn, when none is given.
var displayPalette = []string{"#6C5BB9", "#D97757", "#3E7BC4", "#4C9A6A", "#C2478F", "#C9A227", "#3A9CA6", "#7A7A7A"}

// newWorkspaceLocked stores a workspace with the documented defaults.
func (s *Service) newWorkspaceLocked(name string, isDefault bool) *workspace {
	ws := &workspace{
		id:            s.cfg.ids("wrkspc_"),
		name:          name,
		createdAt:     s.now(),
		compartmentID: s.cfg.ids("cmpt_"),
		residency:     defaultResidency(),
		displayColor:  displayPalette[len(s.workspaces)%len(displayPalette)],
		tags:          map[string]string{},
		isDefault:     isDefault,
	}
	s.workspaces[ws.id] = ws
	return ws
}

// CreateWorkspace adds an active workspace with default settings and
// returns its id. Nobody has API access to it until granted.
func (s *Service) CreateWorkspace(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newWorkspaceLocked(name, false).id
}

// ArchiveWorkspace archives a workspace, with the rules of the archive
// endpoint: one-way, idempotent, never the default workspace.
func (s *Service) ArchiveWorkspace(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.archiveWorkspaceLocked(id)
	return goError(err)
}

// CreateUser adds an organization member without API access anywhere.
func (s *Service) CreateUser(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &user{id: s.cfg.ids("user_"), name: name, apiAccess: map[string]bool{}}
	s.users[u.id] = u
	return u.id
}

// GrantAPIAccess gives a user a role that allows API use in a workspace.
func (s *Service) GrantAPIAccess(userID, workspaceID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.memberLocked(userID)
	if err != nil {
		return err
	}
	if _, err := s.activeWorkspaceLocked(workspaceID); err != nil {
		return err
	}
	u.apiAccess[workspaceID] = true
	return nil
}

// RevokeAPIAccess takes a user's API access in a workspace away. Their key
// scoped to that workspace stops working; an unscoped key no longer reaches it.
func (s *Service) RevokeAPIAccess(userID, workspaceID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.memberLocked(userID)
	if err != nil {
		return err
	}
	if _, ok := s.workspaces[workspaceID]; !ok {
		return fmt.Errorf("workspace %s not found", workspaceID)
	}
	delete(u.apiAccess, workspaceID)
	return nil
}

// RemoveUser removes a user from the organization. All their keys become
// archived, permanently: they are not restored after a re-invite.
func (s *Service) RemoveUser(userID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.memberLocked(userID)
	if err != nil {
		return err
	}
	u.removed = true
	clear(u.apiAccess)
	for _, k := range s.keys {
		if k.kind == PersonalKey && k.ownerID == userID {
			k.status = KeyArchived
		}
	}
	return nil
}

// ReinviteUser makes a removed user a member again, without API access
// anywhere. The keys RemoveUser archived stay archived: archived keys are
// not restored after a re-invite.
func (s *Service) ReinviteUser(userID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[userID]
	if !ok {
		return fmt.Errorf("user %s not found", userID)
	}
	if !u.removed {
		return fmt.Errorf("user %s is already a member of the organization", userID)
	}
	u.removed = false
	return nil
}

// CreateServiceAccount adds a service account; it can reach the default
// workspace and, once added, other workspaces.
func (s *Service) CreateServiceAccount(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sa := &serviceAccount{id: s.cfg.ids("svcacct_"), name: name, workspaces: map[string]bool{}}
	s.serviceAccounts[sa.id] = sa
	return sa.id
}

// AddServiceAccountToWorkspace lets a service account reach a workspace.
func (s *Service) AddServiceAccountToWorkspace(saID, workspaceID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sa, err := s.activeServiceAccountLocked(saID)
	if err != nil {
		return err
	}
	if _, err := s.activeWorkspaceLocked(workspaceID); err != nil {
		return err
	}
	sa.workspaces[workspaceID] = true
	return nil
}

// RemoveServiceAccountFromWorkspace takes a workspace away from a service
// account. The default workspace is always reachable and cannot be removed.
func (s *Service) RemoveServiceAccountFromWorkspace(saID, workspaceID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sa, err := s.activeServiceAccountLocked(saID)
	if err != nil {
		return err
	}
	ws, ok := s.workspaces[workspaceID]
	if !ok {
		return fmt.Errorf("workspace %s not found", workspaceID)
	}
	if ws.isDefault {
		return fmt.Errorf("workspace %s is the default workspace, which every service account reaches", workspaceID)
	}
	delete(sa.workspaces, workspaceID)
	return nil
}

// ArchiveServiceAccount archives a service account; its keys stop working.
func (s *Service) ArchiveServiceAccount(saID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sa, ok := s.serviceAccounts[saID]
	if !ok {
		return fmt.Errorf("service account %s not found", saID)
	}
	sa.archived = true
	return nil
}

func (s *Service) memberLocked(userID string) (*user, error) {
	u, ok := s.users[userID]
	if !ok {
		return nil, fmt.Errorf("user %s not found", userID)
	}
	if u.removed {
		return nil, fmt.Errorf("user %s is no longer a member of the organization", userID)
	}
	return u, nil
}

func (s *Service) activeServiceAccountLocked(saID string) (*serviceAccount, error) {
	sa, ok := s.serviceAccounts[saID]
	if !ok {
		return nil, fmt.Errorf("service account %s not found", saID)
	}
	if sa.archived {
		return nil, fmt.Errorf("service account %s is archived", saID)
	}
	return sa, nil
}

func (s *Service) activeWorkspaceLocked(id string) (*workspace, error) {
	ws, ok := s.workspaces[id]
	if !ok {
		return nil, fmt.Errorf("workspace %s not found", id)
	}
	if ws.archived() {
		return nil, fmt.Errorf("workspace %s is archived", id)
	}
	return ws, nil
}

// reachesLocked reports whether a key's owner may use the API in ws,
// ignoring the key's own scope (the "Scope" column of docs/api-choices.md
// "API keys").
func (s *Service) reachesLocked(p Principal, ws *workspace) bool {
	if ws.archived() {
		return false
	}
	switch p.kind {
	case PersonalKey:
		u := s.users[p.ownerID]
		return u != nil && !u.removed && u.apiAccess[ws.id]
	case ServiceAccountKey:
		sa := s.serviceAccounts[p.ownerID]
		return sa != nil && !sa.archived && (ws.isDefault || sa.workspaces[ws.id])
	case WorkspaceKey:
		return ws.id == p.workspaceID
	}
	return false
}

// goError turns an API error into a plain error for the Go test API.
func goError(err error) error {
	if ae, ok := err.(*kit.APIError); ok {
		return errors.New(ae.Message)
	}
	return err
}
