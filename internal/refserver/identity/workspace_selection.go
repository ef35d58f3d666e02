package identity

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// Workspace selection. Every request runs in one workspace, chosen by the
// numbered rules of docs/api-choices.md "Workspace selection", which the
// code and tests refer to by number:
//
//  1. A key created for one workspace works only there, and requests may
//     omit vendor-workspace-id; if they send it, it must match.
//  2. A key not scoped to a workspace needs vendor-workspace-id on every
//     request.
//  3. The admin API accepts a personal or service account key only when the
//     key is not scoped to a workspace.
//  4. When the header is missing for such a key: 400 invalid_request_error,
//     msgWorkspaceHeaderRequired.
//  5. A header value that is not a valid workspace id: 400
//     invalid_request_error, msgWorkspaceHeaderInvalid.
//  6. An unknown workspace, or one the key's user or service account cannot
//     access: 404 not_found_error "Workspace `<id>` not found.", the same as
//     for any unknown workspace.
//  7. The default workspace id appears in the vendor-workspace-id response
//     header of any request that runs there.

// The messages of rules 4 and 5, verbatim.
const (
	msgWorkspaceHeaderRequired = "vendor-workspace-id header is required for an identity-linked key"
	msgWorkspaceHeaderInvalid  = "vendor-workspace-id header must be a valid workspace ID"
)

// workspaceNotFound is rule 6's 404, also used for objects of the admin API.
func workspaceNotFound(id string) *kit.APIError {
	return kit.NotFound("Workspace `%s` not found.", id)
}

// validWorkspaceID reports whether s has the form wrkspc_ followed by 1–64
// ASCII letters or digits (docs/api-choices.md).
func validWorkspaceID(s string) bool { return kit.HasIDForm(s, "wrkspc_") }

// SelectWorkspace applies rules 1, 2, 4, 5 and 6 and returns the
// workspace the request runs in. header is the vendor-workspace-id value;
// an empty value counts as absent.
func (s *Service) SelectWorkspace(p Principal, header string) (string, error) {
	if header != "" && !validWorkspaceID(header) {
		return "", kit.InvalidRequest(msgWorkspaceHeaderInvalid) // rule 5
	}
	if p.workspaceID != "" {
		// Rule 1: a scoped key works only in its workspace; Authenticate
		// has already checked that it still works there.
		if header == "" || header == p.workspaceID {
			return p.workspaceID, nil
		}
		return "", workspaceNotFound(header) // rule 1: "if sent, it must match"
	}
	if header == "" {
		return "", kit.InvalidRequest(msgWorkspaceHeaderRequired) // rules 2 and 4
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
