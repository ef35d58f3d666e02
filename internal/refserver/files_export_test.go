package refserver

import "strings"

// PutFilesForTest stores a small downloadable file under each of ids in
// the workspace, for tests that attach file resources by fixed ids (a
// file resource must name an existing file).
func (s *Server) PutFilesForTest(workspaceID string, ids ...string) {
	for _, id := range ids {
		if err := s.PutFileWithID(workspaceID, id, id+".txt", "", strings.NewReader("content of "+id)); err != nil {
			panic(err)
		}
	}
}
