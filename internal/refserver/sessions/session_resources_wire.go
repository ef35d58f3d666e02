package sessions

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Session resources as attached to a session, and their wire shapes
// (docs/managed-agents-wire.md 3.9). Memory store snapshots and
// derived mount paths are taken when a session is created, never earlier:
// a deployment's sessions each see the store as it is when they start.

// sessionResource is a resource attached to a session.
type sessionResource struct {
	id        string
	typ       string
	mountPath string
	createdAt time.Time
	updatedAt time.Time

	fileID string // file

	url      string // vcs_repository
	token    string // write-only: never rendered, never logged
	checkout *checkout

	memoryStoreID string // memory_store
	access        string
	name          string // snapshots at attach time; later renames do not propagate
	description   string
	instructions  *string
}

func (r *sessionResource) position() kit.Position {
	return kit.Position{CreatedAt: r.createdAt, ID: r.id}
}

type fileResourceJSON struct {
	Type      string        `json:"type"`
	ID        string        `json:"id"`
	FileID    string        `json:"file_id"`
	MountPath string        `json:"mount_path"`
	CreatedAt kit.Timestamp `json:"created_at"`
	UpdatedAt kit.Timestamp `json:"updated_at"`
}

type repoResourceJSON struct {
	Type      string        `json:"type"`
	ID        string        `json:"id"`
	URL       string        `json:"url"`
	Checkout  any           `json:"checkout"`
	MountPath string        `json:"mount_path"`
	CreatedAt kit.Timestamp `json:"created_at"`
	UpdatedAt kit.Timestamp `json:"updated_at"`
}

type memoryResourceJSON struct {
	Type          string        `json:"type"`
	ID            string        `json:"id"`
	MemoryStoreID string        `json:"memory_store_id"`
	Access        string        `json:"access"`
	Name          string        `json:"name"`
	Description   string        `json:"description"`
	Instructions  *string       `json:"instructions"`
	MountPath     string        `json:"mount_path"`
	CreatedAt     kit.Timestamp `json:"created_at"`
	UpdatedAt     kit.Timestamp `json:"updated_at"`
}

// view renders the resource (key order of docs/managed-agents-wire.md 3.9);
// the token never.
func (r *sessionResource) view() any {
	created, updated := kit.Timestamp(r.createdAt), kit.Timestamp(r.updatedAt)
	switch r.typ {
	case "file":
		return fileResourceJSON{Type: r.typ, ID: r.id, FileID: r.fileID, MountPath: r.mountPath, CreatedAt: created, UpdatedAt: updated}
	case "vcs_repository":
		return repoResourceJSON{Type: r.typ, ID: r.id, URL: r.url, Checkout: checkoutView(r.checkout),
			MountPath: r.mountPath, CreatedAt: created, UpdatedAt: updated}
	}
	return memoryResourceJSON{Type: r.typ, ID: r.id, MemoryStoreID: r.memoryStoreID, Access: r.access, Name: r.name,
		Description: r.description, Instructions: r.instructions, MountPath: r.mountPath, CreatedAt: created, UpdatedAt: updated}
}

// attachResourcesLocked turns request forms into resources of a session,
// applying the rules that depend on state (docs/managed-agents-wire.md 3.9,
// 5.6, docs/files-wire.md 4): a session
// in a self-hosted environment mounts nothing; files must exist (404);
// memory stores must exist
// (404) and not be archived (400), at most 8, each once; mount paths, given
// or derived, are unique. Snapshots and derived paths are taken now. Ids
// are not assigned: a refused request consumes none, and Create Session
// and deployment writes use it only to check. Error paths are under
// "resources".
func (s *Service) attachResourcesLocked(workspaceID string, selfHosted bool, params []resourceParam, now time.Time) ([]*sessionResource, error) {
	const field = "resources"
	if len(params) > 0 && selfHosted {
		return nil, kit.InvalidField(field, "self-hosted environments cannot mount resources")
	}
	out := make([]*sessionResource, 0, len(params))
	mounts := map[string]bool{}
	stores := map[string]bool{}
	for i, p := range params {
		ip := kit.IndexPath(field, i)
		r := &sessionResource{typ: p.typ, createdAt: now, updatedAt: now}
		switch p.typ {
		case "file":
			if err := s.checkFileLocked(workspaceID, p.fileID, kit.JoinPath(ip, "file_id"), now); err != nil {
				return nil, err
			}
			r.fileID = p.fileID
			r.mountPath = "/mnt/session/uploads/" + p.fileID
		case "vcs_repository":
			r.url, r.checkout = p.url, p.checkout
			if p.token != nil {
				r.token = *p.token
			}
			r.mountPath = repositoryMountPath(p.url)
		case "memory_store":
			if len(stores) == maxMemoryStoresPerSsn {
				return nil, kit.InvalidField(field, "must have at most %d memory stores", maxMemoryStoresPerSsn)
			}
			idPath := kit.JoinPath(ip, "memory_store_id")
			st, err := s.deps.StoreLocked(workspaceID, p.memoryStoreID)
			if err != nil {
				return nil, err
			}
			if st.Archived {
				return nil, kit.InvalidField(idPath, "memory store `%s` is archived", st.ID)
			}
			if stores[st.ID] {
				return nil, kit.InvalidField(idPath, "duplicate memory store `%s`", st.ID)
			}
			stores[st.ID] = true
			r.memoryStoreID = st.ID
			r.name, r.description = st.Name, st.Description
			r.access = "read_write"
			if p.access != nil {
				r.access = *p.access
			}
			r.instructions = p.instructions
			r.mountPath = st.MountPath
		}
		if p.mountPath != nil {
			r.mountPath = *p.mountPath
		}
		if mounts[r.mountPath] {
			return nil, kit.InvalidField(kit.JoinPath(ip, "mount_path"), "duplicate mount path `%s`", r.mountPath)
		}
		mounts[r.mountPath] = true
		out = append(out, r)
	}
	return out, nil
}

// checkFileLocked is the rule of a file resource (docs/files-wire.md 4):
// the file must exist, unexpired, in the workspace; the 404 names field.
func (s *Service) checkFileLocked(workspaceID, fileID, field string, now time.Time) error {
	if s.deps.FileLocked == nil {
		return nil
	}
	_, err := s.deps.FileLocked(workspaceID, fileID, field, now)
	return err
}
