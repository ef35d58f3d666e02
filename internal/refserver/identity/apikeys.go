package identity

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// API key administration: the admin API under /v1/organizations/api_keys
// (docs/auth-wire.md section 5). List, retrieve and update; keys are
// created through the Go API (CreateAPIKey), and delete is an update to
// status archived. Any key the admin API accepts (a personal or service
// account key not scoped to a workspace) manages every key of the
// organization, itself included (docs/auth-wire.md 8, C24).

func (s *Service) apiKeyRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodGet, Path: "/v1/organizations/api_keys", Op: "organizations.api_keys.list", Handle: s.listAPIKeys},
		{Method: http.MethodGet, Path: "/v1/organizations/api_keys/{api_key_id}", Op: "organizations.api_keys.retrieve", Handle: s.getAPIKey},
		{Method: http.MethodPost, Path: "/v1/organizations/api_keys/{api_key_id}", Op: "organizations.api_keys.update", Handle: s.updateAPIKey},
	}
}

// partialKeyHint is the api_key object's partial_key_hint: the prefix, the
// first 3 and the last 4 characters of the secret's body (docs/auth-wire.md 5.1).
func partialKeyHint(secret string) string {
	body := strings.TrimPrefix(secret, keySecretPrefix)
	return keySecretPrefix + body[:3] + "..." + body[len(body)-4:]
}

// checkKeyCreatorLocked checks KeySpec.CreatedBy: empty, or a user or
// service account that exists.
func (s *Service) checkKeyCreatorLocked(id string) error {
	switch {
	case id == "":
		return nil
	case strings.HasPrefix(id, "user_"):
		if _, ok := s.users[id]; !ok {
			return fmt.Errorf("CreatedBy: user %s not found", id)
		}
	case strings.HasPrefix(id, "svcacct_"):
		if _, ok := s.serviceAccounts[id]; !ok {
			return fmt.Errorf("CreatedBy: service account %s not found", id)
		}
	default:
		return errors.New("CreatedBy must be a user_… or svcacct_… id")
	}
	return nil
}

// actorRef is {id, type} of created_by and principal.
type actorRef struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

func actorOf(id string) actorRef {
	if strings.HasPrefix(id, "svcacct_") {
		return actorRef{ID: id, Type: "service_account"}
	}
	return actorRef{ID: id, Type: "user"}
}

// apiKeyView is the api_key object (docs/auth-wire.md 5.1). Status never reports
// expiry: expires_at does.
type apiKeyView struct {
	Type           string         `json:"type"`
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	WorkspaceID    *string        `json:"workspace_id"`
	CreatedAt      kit.Timestamp  `json:"created_at"`
	CreatedBy      actorRef       `json:"created_by"`
	Principal      *actorRef      `json:"principal"`
	PartialKeyHint string         `json:"partial_key_hint"`
	Status         KeyStatus      `json:"status"`
	ExpiresAt      *kit.Timestamp `json:"expires_at"`
	Scope          keyScope       `json:"scope"`
}

// keyScope is where a key belongs: {type: workspace, workspace_id} or
// {type: organization} for a key without a workspace.
type keyScope struct {
	Type        string `json:"type"`
	WorkspaceID string `json:"workspace_id,omitempty"`
}

func (k *apiKey) view() apiKeyView {
	v := apiKeyView{
		Type:           "api_key",
		ID:             k.id,
		Name:           k.name,
		CreatedAt:      kit.Timestamp(k.createdAt),
		CreatedBy:      actorOf(k.createdBy),
		PartialKeyHint: k.hint,
		Status:         k.status,
		ExpiresAt:      kit.OptionalTimestamp(k.expiresAt),
	}
	v.Scope = keyScope{Type: "organization"}
	if k.workspaceID != "" {
		ws := k.workspaceID
		v.WorkspaceID = &ws
		v.Scope = keyScope{Type: "workspace", WorkspaceID: ws}
	}
	if k.kind != WorkspaceKey {
		p := actorOf(k.ownerID)
		v.Principal = &p
	}
	return v
}

func (k *apiKey) position() kit.Position { return kit.Position{CreatedAt: k.createdAt, ID: k.id} }

// validPrefixedID reports whether s is prefix followed by 1–64 ASCII letters
// or digits: a well-formed id in a request (docs/auth-wire.md, "How to
// read this", Identifiers).
func validPrefixedID(prefix, s string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(rest) == 0 || len(rest) > 64 {
		return false
	}
	for _, c := range []byte(rest) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

var keyStatuses = []string{string(KeyActive), string(KeyInactive), string(KeyArchived)}

func (s *Service) listAPIKeys(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseIDPageParams(q)
	if err != nil {
		return err
	}
	status, hasStatus := kit.QueryValue(q, "status")
	if hasStatus && !slices.Contains(keyStatuses, status) {
		return kit.InvalidField("status", "must be one of %s", kit.QuoteList(keyStatuses))
	}
	wsID, hasWS := kit.QueryValue(q, "workspace_id")
	if hasWS && !validWorkspaceID(wsID) {
		return kit.InvalidField("workspace_id", "must be a workspace ID (`wrkspc_…`)")
	}
	creator, hasCreator := kit.QueryValue(q, "created_by_user_id")
	if hasCreator && !validPrefixedID("user_", creator) {
		return kit.InvalidField("created_by_user_id", "must be a user ID (`user_…`)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.keys), kit.NewestFirst((*apiKey).position))
	keep := func(k *apiKey) bool {
		return (!hasStatus || string(k.status) == status) &&
			(!hasWS || k.workspaceID == wsID) &&
			(!hasCreator || k.createdBy == creator)
	}
	page, err := kit.PaginateByID(all, func(k *apiKey) string { return k.id }, keep, p)
	if err != nil {
		return err
	}
	return c.OK(kit.MapIDPage(page, (*apiKey).view))
}

func apiKeyNotFound(id string) *kit.APIError {
	return kit.NotFound("API key `%s` not found.", id)
}

func (s *Service) getAPIKey(c *kit.Call) error {
	id := c.R.PathValue("api_key_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[id]
	if !ok {
		return apiKeyNotFound(id)
	}
	return c.OK(k.view())
}

// apiKeyUpdateBody is the body of Update API Key (docs/auth-wire.md 5.4).
type apiKeyUpdateBody struct {
	Name      kit.Optional[string]          `json:"name"`
	Status    kit.Optional[string]          `json:"status"`
	ExpiresAt kit.Optional[json.RawMessage] `json:"expires_at"`
}

func (s *Service) updateAPIKey(c *kit.Call) error {
	var body apiKeyUpdateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.ExpiresAt.Set {
		return kit.InvalidField("expires_at", "expiry is fixed at creation and cannot be changed")
	}
	if body.Name.Null {
		return kit.InvalidField("name", "must not be null")
	}
	if body.Name.Set {
		if err := kit.CheckLength("name", body.Name.Value, 1, 255); err != nil {
			return err
		}
	}
	if body.Status.Null {
		return kit.InvalidField("status", "must not be null")
	}
	if body.Status.Set && !slices.Contains(keyStatuses, body.Status.Value) {
		return kit.InvalidField("status", "must be one of %s", kit.QuoteList(keyStatuses))
	}
	id := c.R.PathValue("api_key_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[id]
	if !ok {
		return apiKeyNotFound(id)
	}
	renames := body.Name.Set && body.Name.Value != k.name
	moves := body.Status.Set && KeyStatus(body.Status.Value) != k.status
	if err := s.checkKeyUpdateLocked(k, renames, moves, KeyStatus(body.Status.Value)); err != nil {
		return err
	}
	if renames {
		k.name = body.Name.Value
	}
	if moves {
		k.status = KeyStatus(body.Status.Value)
	}
	return c.OK(k.view())
}

// checkKeyUpdateLocked applies the key state rules (docs/auth-wire.md 5.4):
// nothing changing is always fine; a deleted key never changes again; an
// expired key can only be deleted. Every other move between active and
// inactive, and deleting, is allowed.
func (s *Service) checkKeyUpdateLocked(k *apiKey, renames, moves bool, to KeyStatus) error {
	switch {
	case !renames && !moves:
		return nil
	case k.status == KeyArchived:
		return kit.StateConflict("API key `%s` has been deleted and cannot be updated.", k.id)
	case k.expired(s.cfg.clock.Now()) && (renames || to != KeyArchived):
		return kit.StateConflict("API key `%s` has expired; an expired key can only be deleted.", k.id)
	}
	return nil
}
