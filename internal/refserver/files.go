package refserver

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/files"
)

// The files family's options and test hooks (package files,
// docs/files-wire.md).

// WithFileDir stores uploaded files' bytes in dir, which must exist. By
// default they go to a temporary directory made on the first upload and
// removed by Close (and by Start's stop).
func WithFileDir(dir string) Option {
	return func(cfg *config) { cfg.fileDir = dir }
}

// WithMaxFileSize sets the largest file an upload may carry (default
// 500 MB, the platform's limit), so that a test can upload more, or hit
// the limit with less. Values of zero or less keep the default.
func WithMaxFileSize(n int64) Option {
	return func(cfg *config) {
		if n > 0 {
			cfg.maxFileSize = n
		}
	}
}

// newFiles builds the files family over the server's lock. Uploads move
// the connection's read deadline on as the body arrives, so that Start's
// ReadTimeout does not cut a large upload off.
func (s *Server) newFiles() *files.Service {
	return files.New(files.Deps{Deps: s.deps, Lock: &s.mu, Dir: s.cfg.fileDir, MaxFileSize: s.cfg.maxFileSize, ReadTimeout: readTimeout})
}

// PutFile stores a file as the platform itself would create one (a
// code-execution output, say): downloadable, with no size limit, in the
// workspace. It is how a test gets a file to download, since uploaded
// files are not downloadable. mimeType "" is taken from the name's
// extension.
func (s *Server) PutFile(workspaceID, name, mimeType string, r io.Reader) (id string, err error) {
	return s.files.Put(files.PutParams{WorkspaceID: workspaceID, Filename: name, MimeType: mimeType, Content: r}, s.now())
}

// PutSessionFile is PutFile for a file a session created: its scope is the
// session (scope in the file object, scope_id in the list). The session is
// not checked.
func (s *Server) PutSessionFile(workspaceID, sessionID, name, mimeType string, r io.Reader) (id string, err error) {
	return s.files.Put(files.PutParams{WorkspaceID: workspaceID, SessionID: sessionID, Filename: name, MimeType: mimeType, Content: r}, s.now())
}

// PutFileWithID is PutFile with the file's id chosen by the caller
// (replacing a file that has it), for tests that attach file resources by
// fixed ids: a file resource must name an existing file of the workspace.
func (s *Server) PutFileWithID(workspaceID, id, name, mimeType string, r io.Reader) error {
	if !strings.HasPrefix(id, "file_") {
		return fmt.Errorf("refserver: PutFileWithID: %q is not a file id (file_…)", id)
	}
	_, err := s.files.Put(files.PutParams{WorkspaceID: workspaceID, ID: id, Filename: name, MimeType: mimeType, Content: r}, s.now())
	return err
}

// Close releases what the server holds outside memory: the stored files'
// bytes, and their directory when the server made it. Call it when done
// with a server served by httptest (Start's stop calls it). The server
// must not be used afterwards.
func (s *Server) Close() error { return s.files.Close() }
