package files

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The file objects, the route table and the endpoints that read and
// delete (docs/files-wire.md sections 1 and 2). Uploads are in upload.go,
// downloads in download.go, names and MIME types in names.go.

// fileState is every file of every workspace. It is guarded by Service.mu
// and usable as its zero value.
type fileState struct {
	byID map[string]*file // a deleted or swept file is removed
}

// file is a stored file. Its bytes are at path, written once before the
// file is inserted and never changed.
type file struct {
	id           string
	workspaceID  string
	filename     string
	mimeType     string
	size         int64
	sha256       [32]byte
	createdAt    time.Time
	expiresAt    time.Time // zero: never
	downloadable bool
	sessionID    string // the session that created it (scope); "" for uploads
	path         string
}

// live reports whether the file exists at now: an expired file is gone
// from every endpoint, even before the tick sweeps it.
func (f *file) live(now time.Time) bool {
	return f.expiresAt.IsZero() || now.Before(f.expiresAt)
}

func (f *file) position() kit.Position { return kit.Position{CreatedAt: f.createdAt, ID: f.id} }

func (f *file) info() Info {
	return Info{ID: f.id, Filename: f.filename, MimeType: f.mimeType, Size: f.size, Downloadable: f.downloadable}
}

type scopeJSON struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// fileJSON is the file object, in the key order of docs/files-wire.md 2.
type fileJSON struct {
	Type         string         `json:"type"`
	ID           string         `json:"id"`
	Filename     string         `json:"filename"`
	MimeType     string         `json:"mime_type"`
	SizeBytes    int64          `json:"size_bytes"`
	CreatedAt    kit.Timestamp  `json:"created_at"`
	Downloadable bool           `json:"downloadable"`
	ExpiresAt    *kit.Timestamp `json:"expires_at"`
	Scope        *scopeJSON     `json:"scope"`
}

func (f *file) view() fileJSON {
	out := fileJSON{Type: "file", ID: f.id, Filename: f.filename, MimeType: f.mimeType, SizeBytes: f.size,
		CreatedAt: kit.Timestamp(f.createdAt), Downloadable: f.downloadable}
	if !f.expiresAt.IsZero() {
		t := kit.Timestamp(f.expiresAt)
		out.ExpiresAt = &t
	}
	if f.sessionID != "" {
		out.Scope = &scopeJSON{Type: "session", ID: f.sessionID}
	}
	return out
}

const (
	idPrefix     = "file_"
	listMaxLimit = 1000
	listMaxIDs   = 100
)

func (s *Service) fileRoutes() []kit.Route {
	const one = "/v1/files/{file_id}"
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/files", Op: "files.upload", Handle: s.upload, RawBody: true},
		{Method: http.MethodGet, Path: "/v1/files", Op: "files.list", Handle: s.list},
		{Method: http.MethodGet, Path: one, Op: "files.retrieve", Handle: s.get},
		{Method: http.MethodGet, Path: one + "/content", Op: "files.download", Handle: s.download},
		{Method: http.MethodDelete, Path: one, Op: "files.delete", Handle: s.delete},
	}
}

// fileLocked returns the live file with this id in the workspace; 404
// when it is unknown, deleted, expired, or in another workspace. The
// caller holds s.mu.
func (s *Service) fileLocked(workspaceID, id string, now time.Time) (*file, error) {
	f, ok := s.files.byID[id]
	if !ok || f.workspaceID != workspaceID || !f.live(now) {
		return nil, kit.NotFound("File `%s` not found.", id)
	}
	return f, nil
}

// insertLocked gives f its id, unless it has one, and stores it. The
// caller holds s.mu.
func (s *Service) insertLocked(f *file) {
	if f.id == "" {
		f.id = s.cfg.ids(idPrefix)
	}
	if s.files.byID == nil {
		s.files.byID = map[string]*file{}
	}
	s.files.byID[f.id] = f
}

// removeLocked forgets a file and removes its bytes. A download already
// reading them keeps its open handle. The caller holds s.mu.
func (s *Service) removeLocked(id string) {
	if f, ok := s.files.byID[id]; ok {
		delete(s.files.byID, id)
		_ = os.Remove(f.path)
	}
}

func (s *Service) get(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.fileLocked(c.WorkspaceID, c.R.PathValue("file_id"), c.Now())
	if err != nil {
		return err
	}
	return c.OK(f.view())
}

func (s *Service) delete(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.fileLocked(c.WorkspaceID, c.R.PathValue("file_id"), c.Now())
	if err != nil {
		return err
	}
	s.removeLocked(f.id)
	return c.OK(struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}{f.id, "file_deleted"})
}

// list is newest first, paged by cursor, filtered by scope_id (a session
// id) and ids.
func (s *Service) list(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseCursorPageParams(q, listMaxLimit)
	if err != nil {
		return err
	}
	scopeID, _ := kit.QueryValue(q, "scope_id")
	ids := q["ids"]
	if len(ids) > listMaxIDs {
		return kit.InvalidField("ids", "must have at most %d values", listMaxIDs)
	}
	for _, id := range ids {
		if !strings.HasPrefix(id, idPrefix) || len(id) == len(idPrefix) {
			return kit.InvalidField("ids", "`%s` is not a file id (`file_…`)", id)
		}
	}
	now := c.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	all := make([]*file, 0, len(s.files.byID))
	for _, f := range s.files.byID {
		if f.workspaceID == c.WorkspaceID {
			all = append(all, f)
		}
	}
	slices.SortFunc(all, kit.NewestFirst((*file).position))
	keep := func(f *file) bool {
		return f.live(now) && (scopeID == "" || f.sessionID == scopeID) && (len(ids) == 0 || slices.Contains(ids, f.id))
	}
	return c.OK(kit.MapCursorPage(kit.PaginateByCursor(all, (*file).position, keep, p), (*file).view))
}
