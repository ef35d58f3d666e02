package files

import (
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// DefaultMaxFileSize is the platform's limit on one file: 500 MB.
const DefaultMaxFileSize int64 = 500 << 20

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because sessions check and read files (FileLocked, ContentLocked)
	// while holding it for their own state. nil: the family gets a lock of
	// its own.
	Lock sync.Locker
	// Dir is where the files' bytes are stored. "": a temporary directory
	// made on the first upload and removed by Close.
	Dir string
	// MaxFileSize is the largest file an upload may carry; zero or less:
	// DefaultMaxFileSize.
	MaxFileSize int64
	// ReadTimeout, when set, is how long an upload may go without a byte
	// arriving: the handler moves the connection's read deadline on as the
	// body comes in, so that a large upload is not cut off by a server's
	// ReadTimeout, which bounds a whole request.
	ReadTimeout time.Duration
}

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	ids         kit.IDSource
	maxFileSize int64
	readTimeout time.Duration
}

// Service is the files family: its routes, every file of every workspace,
// and the directory holding their bytes.
type Service struct {
	cfg   config
	mu    sync.Locker // Deps.Lock: guards files
	files fileState

	// dirMu guards dir, ownDir and closed. It is not Deps.Lock: an upload
	// creates its temporary file before it takes that lock.
	dirMu  sync.Mutex
	dir    string
	ownDir bool // dir was made by the family, and Close removes it
	closed bool
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	maxSize := d.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	return &Service{
		cfg: config{ids: d.IDs, maxFileSize: maxSize, readTimeout: d.ReadTimeout},
		mu:  mu,
		dir: d.Dir,
	}
}

// Routes are the family's endpoints.
func (s *Service) Routes() []kit.Route { return s.fileRoutes() }

// Info is what the rest of the server learns about a file: a copy.
type Info struct {
	ID           string
	Filename     string
	MimeType     string
	Size         int64
	Downloadable bool
}

// FileLocked returns the live (not deleted, not expired) file with this id
// in the workspace, or the 404 of docs/files-wire.md naming field ("File
// `<id>` not found." without one). The caller holds Deps.Lock.
func (s *Service) FileLocked(workspaceID, id, field string, now time.Time) (Info, error) {
	f, err := s.fileLocked(workspaceID, id, now)
	if err != nil {
		if field != "" {
			return Info{}, kit.NotFound("%s: file `%s` not found", field, id)
		}
		return Info{}, err
	}
	return f.info(), nil
}

// ContentLocked returns up to limit bytes of a live file of the workspace,
// and whether the file is longer than that. It reads the disk under the
// lock, so limit must stay small (the scripted agent's read tool). The
// caller holds Deps.Lock.
func (s *Service) ContentLocked(workspaceID, id string, limit int64, now time.Time) (data []byte, truncated bool, err error) {
	f, err := s.fileLocked(workspaceID, id, now)
	if err != nil {
		return nil, false, err
	}
	fh, err := os.Open(f.path)
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	data, err = io.ReadAll(io.LimitReader(fh, limit))
	if err != nil {
		return nil, false, err
	}
	return data, f.size > int64(len(data)), nil
}

// PutParams is a file the platform itself creates (a test hook: the
// reference server's engine writes no files yet).
type PutParams struct {
	WorkspaceID string
	Filename    string // "" becomes unnamed, as for an upload
	MimeType    string // "": from the name's extension
	// SessionID, if set, scopes the file to that session (scope in the
	// file object, scope_id in the list).
	SessionID string
	Content   io.Reader
	// ID, if set, is the file's id instead of a new one, for tests that
	// name files by fixed ids; a file with that id is replaced.
	ID string
}

// Put stores a downloadable file as the platform would create it, without
// the upload's size limit, and returns its id.
func (s *Service) Put(p PutParams, now time.Time) (string, error) {
	tmp, err := s.createTemp()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), p.Content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", err
	}
	f := &file{
		workspaceID:  p.WorkspaceID,
		mimeType:     mimeTypeOf(p.MimeType, p.Filename),
		size:         n,
		createdAt:    now,
		downloadable: true,
		sessionID:    p.SessionID,
		path:         tmp.Name(),
	}
	f.filename = fileNameOf(p.Filename, f.mimeType)
	copy(f.sha256[:], h.Sum(nil))
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.ID != "" {
		s.removeLocked(p.ID)
	}
	f.id = p.ID
	s.insertLocked(f)
	return f.id, nil
}

// SweepLocked forgets the files that have expired by now and removes
// their bytes. The caller holds Deps.Lock; the server calls it from its
// tick, so expired files do not hold disk space.
func (s *Service) SweepLocked(now time.Time) {
	for id, f := range s.files.byID {
		if !f.live(now) {
			s.removeLocked(id)
		}
	}
}

// errClosed is the failure of an upload after Close.
var errClosed = errors.New("files: service closed")

// Close removes the bytes of every file, and the directory too when the
// family made it. Uploads after Close fail; the server's Close calls it.
func (s *Service) Close() error {
	s.mu.Lock()
	for id := range s.files.byID {
		s.removeLocked(id)
	}
	s.mu.Unlock()
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	s.closed = true
	if s.ownDir && s.dir != "" {
		err := os.RemoveAll(s.dir)
		s.dir, s.ownDir = "", false
		return err
	}
	return nil
}

// createTemp creates a file for incoming bytes in the family's directory,
// making the directory first when it is the family's own.
func (s *Service) createTemp() (*os.File, error) {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "refserver-files-")
		if err != nil {
			return nil, err
		}
		s.dir, s.ownDir = dir, true
	}
	return os.CreateTemp(s.dir, "file-*")
}
