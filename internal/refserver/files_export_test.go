package refserver

import (
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/files"
)

// PutFilesForTest stores a small downloadable file under each of ids in
// the workspace, for tests that attach file resources by fixed ids (a
// file resource must name an existing file).
func (s *Server) PutFilesForTest(workspaceID string, ids ...string) {
	for _, id := range ids {
		_, err := s.files.Put(files.PutParams{WorkspaceID: workspaceID, ID: id, Filename: id + ".txt",
			Content: strings.NewReader("content of " + id)}, s.now())
		if err != nil {
			panic(err)
		}
	}
}
