package platformtest

import "io"

// PutFile stores a file in the server's workspace (WorkspaceID) as the
// platform itself creates files, code-execution outputs say: downloadable,
// and without the upload size limit. It returns the file's id. Uploaded
// files are not downloadable (docs/files-wire.md), so this is how a test
// gets a file to download; content is streamed to disk, never held in
// memory, so it may be large. mimeType "" is taken from name's extension.
func (s *Server) PutFile(name, mimeType string, content io.Reader) (id string, err error) {
	return s.rs.PutFile(s.seed.DefaultWorkspaceID, name, mimeType, content)
}
