package refserver

// PutVaultsForTest stores an empty vault under each of ids in the
// workspace, for tests that name vaults by fixed ids (a session's or
// deployment's vault_ids must name usable vaults).
func (s *Server) PutVaultsForTest(workspaceID string, ids ...string) {
	for _, id := range ids {
		s.vaults.PutWithID(workspaceID, id, "vault "+id, s.now())
	}
}
