package identity

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/apiversion"
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

// actorRef is {id, type} of created_by.
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

// keyPrincipal is the api_key object's principal, a union on type:
// {type: user_actor, user_id} or {type: service_account_actor,
// service_account_id}. A key bound to no principal sends null.
type keyPrincipal struct {
	Type             string `json:"type"`
	UserID           string `json:"user_id,omitempty"`
	ServiceAccountID string `json:"service_account_id,omitempty"`
}

func principalOf(id string) keyPrincipal {
	if strings.HasPrefix(id, "svcacct_") {
		return keyPrincipal{Type: "service_account_actor", ServiceAccountID: id}
	}
	return keyPrincipal{Type: "user_actor", UserID: id}
}

// keyExpired is the status the API reports for a key past its expiry. It
// is never stored: the key keeps its stored status, which comes back only
// if the clock is set back.
const keyExpired KeyStatus = "expired"

// statusAt is the status the API reports at now: archived stays archived
// (deletion is final whatever the expiry), otherwise a key past its expiry
// is expired, otherwise the stored status.
func (k *apiKey) statusAt(now time.Time) KeyStatus {
	if k.status != KeyArchived && k.expired(now) {
		return keyExpired
	}
	return k.status
}

// apiKeyView is the api_key object (docs/auth-wire.md 5.1). Status reports
// expiry on the server's clock (statusAt). workspace_id, which scope replaced, is left out
// from API version 2026-10-21 on (docs/api-versions.md).
type apiKeyView struct {
	Type           string         `json:"type"`
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	WorkspaceID    *deprecatedID  `json:"workspace_id,omitempty"`
	CreatedAt      kit.Timestamp  `json:"created_at"`
	CreatedBy      actorRef       `json:"created_by"`
	Principal      *keyPrincipal  `json:"principal"`
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

// deprecatedID is a deprecated id field that is present: the id, or null
// for "".
type deprecatedID string

func (d deprecatedID) MarshalJSON() ([]byte, error) {
	if d == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(d))
}

// view is k as the API returns it at now under API version version.
func (k *apiKey) view(version string, now time.Time) apiKeyView {
	v := apiKeyView{
		Type:           "api_key",
		ID:             k.id,
		Name:           k.name,
		CreatedAt:      kit.Timestamp(k.createdAt),
		CreatedBy:      actorOf(k.createdBy),
		PartialKeyHint: k.hint,
		Status:         k.statusAt(now),
		ExpiresAt:      kit.OptionalTimestamp(k.expiresAt),
	}
	v.Scope = keyScope{Type: "organization"}
	if k.workspaceID != "" {
		v.Scope = keyScope{Type: "workspace", WorkspaceID: k.workspaceID}
	}
	if apiversion.DeprecatedFields(version) {
		ws := deprecatedID(k.workspaceID)
		v.WorkspaceID = &ws
	}
	if k.kind != WorkspaceKey {
		p := principalOf(k.ownerID)
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

// keyStatuses are the statuses an update can set; listStatuses, those a
// list can filter on, add the reported-only expired.
var (
	keyStatuses  = []string{string(KeyActive), string(KeyInactive), string(KeyArchived)}
	listStatuses = append(slices.Clone(keyStatuses), string(keyExpired))
)

func (s *Service) listAPIKeys(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseIDPageParams(q)
	if err != nil {
		return err
	}
	status, hasStatus := kit.QueryValue(q, "status")
	if hasStatus && !slices.Contains(listStatuses, status) {
		return kit.InvalidField("status", "must be one of %s", kit.QuoteList(listStatuses))
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
	now := s.cfg.clock.Now()
	all := slices.SortedFunc(maps.Values(s.keys), kit.NewestFirst((*apiKey).position))
	keep := func(k *apiKey) bool {
		return (!hasStatus || string(k.statusAt(now)) == status) &&
			(!hasWS || k.workspaceID == wsID) &&
			(!hasCreator || k.createdBy == creator)
	}
	page, err := kit.PaginateByID(all, func(k *apiKey) string { return k.id }, keep, p)
	if err != nil {
		return err
	}
	return c.OK(kit.MapIDPage(page, func(k *apiKey) apiKeyView { return k.view(c.Version, now) }))
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
	return c.OK(k.view(c.Version, s.cfg.clock.Now()))
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
	// A move is measured against the reported status, so asking an
	// expired key for its stored status is a change, which is refused.
	now := s.cfg.clock.Now()
	renames := body.Name.Set && body.Name.Value != k.name
	moves := body.Status.Set && KeyStatus(body.Status.Value) != k.statusAt(now)
	if err := s.checkKeyUpdateLocked(k, renames, moves, KeyStatus(body.Status.Value), now); err != nil {
		return err
	}
	if renames {
		k.name = body.Name.Value
	}
	if moves {
		k.status = KeyStatus(body.Status.Value)
	}
	return c.OK(k.view(c.Version, now))
}

// checkKeyUpdateLocked applies the key state rules (docs/auth-wire.md 5.4):
// nothing changing is always fine; a deleted key never changes again; an
// expired key can only be deleted. Every other move between active and
// inactive, and deleting, is allowed.
func (s *Service) checkKeyUpdateLocked(k *apiKey, renames, moves bool, to KeyStatus, now time.Time) error {
	switch {
	case !renames && !moves:
		return nil
	case k.status == KeyArchived:
		return kit.StateConflict("API key `%s` has been deleted and cannot be updated.", k.id)
	case k.expired(now) && (renames || to != KeyArchived):
		return kit.StateConflict("API key `%s` has expired; an expired key can only be deleted.", k.id)
	}
	return nil
}
