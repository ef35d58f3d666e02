package vaults

import (
	"errors"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// LookupLocked is Service.VaultLocked as the families that hold vault ids
// receive it through their Deps.
type LookupLocked func(workspaceID, id string) (VaultInfo, error)

// CheckIDsLocked is the rule of a session's or deployment's vault_ids
// (docs/vaults-wire.md 5): each id, in order, names an unarchived vault of
// the workspace. The first that does not is a 404 (unknown, deleted or in
// another workspace) or a 400 (archived) naming field[i]. A nil lookup
// takes every id as usable (a family's tests on their own). The caller
// holds the server's lock.
func CheckIDsLocked(lookup LookupLocked, workspaceID, field string, ids []string) error {
	if lookup == nil {
		return nil
	}
	for i, id := range ids {
		p := kit.IndexPath(field, i)
		v, err := lookup(workspaceID, id)
		if err != nil {
			var ae *kit.APIError
			if errors.As(err, &ae) {
				named := *ae
				named.Message = p + ": " + ae.Message
				return &named
			}
			return err
		}
		if v.Archived {
			return kit.InvalidField(p, "vault `%s` is archived", id)
		}
	}
	return nil
}

// RunBlockerLocked is what a deployment run meets when a vault of ids is
// no longer usable (docs/managed-agents-wire.md 8.7): the run error's type
// and message for the first such vault in order, or "" when every vault is
// usable.
func RunBlockerLocked(lookup LookupLocked, workspaceID string, ids []string) (typ, message string) {
	if lookup == nil {
		return "", ""
	}
	for _, id := range ids {
		v, err := lookup(workspaceID, id)
		switch {
		case err != nil:
			return "vault_not_found_error", "vault `" + id + "` not found"
		case v.Archived:
			return "vault_archived_error", "vault `" + id + "` is archived"
		}
	}
	return "", ""
}

// PutWithID stores an empty vault with a chosen id and display name in the
// workspace (replacing one that has it), for tests that name vaults by
// fixed ids.
func (s *Service) PutWithID(workspaceID, id, displayName string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vaults[id] = &vault{id: id, workspaceID: workspaceID, displayName: displayName,
		metadata: map[string]string{}, createdAt: now, updatedAt: now, credentials: map[string]*credential{}}
}
