package sessions

import (
	"encoding/json"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Session resources R1–R5 (docs/managed-agents-wire.md section 7).
// Resources are attached at session creation (files,
// repositories, memory stores); afterwards only files can be added. Any
// change to a session's resources moves the session's updated_at, since
// the session object shows them.

const sessionResourceListMax = 1000

// listSessionResources is R1: in attach order, which is created_at
// ascending with the resources of one create request in the order the
// request gave them (their created_at is the same, and their ids are
// random, so neither breaks the tie); without limit every resource after
// the cursor is returned (docs/managed-agents-wire.md 1.6).
func (s *Service) listSessionResources(c *kit.Call) error {
	q := c.R.URL.Query()
	limit, err := kit.QueryInt(q, "limit", 0, 1, sessionResourceListMax) // 0: all
	if err != nil {
		return err
	}
	var after *kit.Position
	if raw, ok := kit.QueryValue(q, "page"); ok {
		pos, ok := kit.DecodeCursor(raw)
		if !ok {
			return kit.InvalidField("page", "invalid cursor")
		}
		after = &pos
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	all := x.resources // attach order
	if after != nil {
		if i := slices.IndexFunc(all, func(r *sessionResource) bool { return r.id == after.ID }); i >= 0 {
			all = all[i+1:]
		} else {
			// The cursor's resource was detached since: keep what was
			// attached after its time.
			all = slices.DeleteFunc(slices.Clone(all), func(r *sessionResource) bool { return !r.createdAt.After(after.CreatedAt) })
		}
	}
	page := all
	if limit > 0 && len(all) > limit {
		page = all[:limit]
	}
	out := kit.CursorPage[any]{Data: kit.MapSlice(page, (*sessionResource).view)}
	if len(page) < len(all) {
		next := page[len(page)-1].position().Encode()
		out.NextPage = &next
	}
	return c.OK(out)
}

// addSessionResource is R2: a file, like the real endpoint (repositories
// and memory stores are attached only at creation).
func (s *Service) addSessionResource(c *kit.Call) error {
	// The type is read first, so that another resource type is answered by
	// the type rule rather than by its first unknown field.
	var probe map[string]json.RawMessage
	if json.Unmarshal(c.Ex.Body, &probe) == nil {
		var typ string
		if raw, ok := probe["type"]; ok && json.Unmarshal(raw, &typ) == nil && typ != "file" {
			return kit.BadType("", "file")
		}
	}
	p, err := parseFileResource("", c.Ex.Body)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if err := x.writable(); err != nil {
		return err
	}
	if env, ok := s.deps.EnvironmentByIDLocked(x.environmentID); ok && env.SelfHosted {
		// A property of the session the request acts on, not of the body:
		// 409, like the other state rules (docs/managed-agents-wire.md 1.3).
		return kit.StateConflict("session_id: self-hosted environments cannot mount resources")
	}
	now := c.Now()
	if err := s.checkFileLocked(x.workspaceID, p.fileID, "file_id", now); err != nil {
		return err
	}
	r := &sessionResource{typ: "file", fileID: p.fileID, mountPath: "/mnt/session/uploads/" + p.fileID, createdAt: now, updatedAt: now}
	if p.mountPath != nil {
		r.mountPath = *p.mountPath
	}
	for _, other := range x.resources {
		if other.mountPath == r.mountPath {
			return kit.InvalidField("mount_path", "duplicate mount path `%s`", r.mountPath)
		}
	}
	r.id = s.cfg.ids("sesrsc_")
	x.resources = append(x.resources, r)
	x.updatedAt = now
	return c.OK(r.view())
}

func (s *Service) getSessionResource(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	_, r, err := x.resource(c.R.PathValue("resource_id"))
	if err != nil {
		return err
	}
	return c.OK(r.view())
}

type resourceUpdateBody struct {
	AuthorizationToken kit.Optional[string] `json:"authorization_token"`
}

// updateSessionResource is R4: rotates a repository's token. The token is
// write-only: it is stored, never returned, and the request log redacts it.
func (s *Service) updateSessionResource(c *kit.Call) error {
	var body resourceUpdateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	const field = "authorization_token"
	if err := kit.Required(field, body.AuthorizationToken); err != nil {
		return err
	}
	if err := kit.CheckLength(field, body.AuthorizationToken.Value, 1, maxAuthorizationToken); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if err := x.writable(); err != nil {
		return err
	}
	_, r, err := x.resource(c.R.PathValue("resource_id"))
	if err != nil {
		return err
	}
	if r.typ != "vcs_repository" {
		return kit.InvalidField(field, "only vcs_repository resources support token rotation")
	}
	now := c.Now()
	r.token = body.AuthorizationToken.Value
	r.updatedAt, x.updatedAt = now, now
	return c.OK(r.view())
}

// deleteSessionResource is R5: any resource type.
func (s *Service) deleteSessionResource(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if err := x.writable(); err != nil {
		return err
	}
	i, r, err := x.resource(c.R.PathValue("resource_id"))
	if err != nil {
		return err
	}
	x.resources = slices.Delete(x.resources, i, i+1)
	x.updatedAt = c.Now()
	return c.OK(deletedJSON{ID: r.id, Type: "session_resource_deleted"})
}
