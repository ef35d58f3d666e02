package refserver

// SPEC 5.2 messages, verbatim.
const (
	msgWorkspaceHeaderRequired = "vendor-workspace-id header is required for an identity-linked key"
	msgWorkspaceHeaderInvalid  = "vendor-workspace-id header must be a valid workspace ID"
)

// workspaceNotFound is rule 6's 404, also used for objects of the admin API.
func workspaceNotFound(id string) *apiError {
	return notFound("Workspace `%s` not found.", id)
}

// validWorkspaceID reports whether s has the form wrkspc_ followed by 1–64
// ASCII letters or digits (docs/api-choices.md).
func validWorkspaceID(s string) bool {
	const prefix = "wrkspc_"
	if len(s) <= len(prefix) || len(s) > len(prefix)+64 || s[:len(prefix)] != prefix {
		return false
	}
	for _, c := range []byte(s[len(prefix):]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// selectWorkspace applies SPEC 5.2 rules 1, 2, 4, 5 and 6 and returns the
// workspace the request runs in. header is the vendor-workspace-id value;
// an empty value counts as absent.
func (s *Server) selectWorkspace(p principal, header string) (string, error) {
	if header != "" && !validWorkspaceID(header) {
		return "", invalidRequest(msgWorkspaceHeaderInvalid) // rule 5
	}
	if p.workspaceID != "" {
		// Rule 1: a scoped key works only in its workspace; authenticate
		// has already checked that it still works there.
		if header == "" || header == p.workspaceID {
			return p.workspaceID, nil
		}
		return "", workspaceNotFound(header) // "if sent, it must match" (SPEC 4)
	}
	if header == "" {
		return "", invalidRequest(msgWorkspaceHeaderRequired) // rules 2 and 4
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, ok := s.workspaces[header]
	if !ok || !s.reachesLocked(p, ws) {
		// Rule 6: no access looks exactly like no workspace; archived
		// workspaces cannot be selected.
		return "", workspaceNotFound(header)
	}
	return ws.id, nil
}
