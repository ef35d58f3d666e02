package refserver

import (
	jose "github.com/go-jose/go-jose/v4"

	"github.com/agentplatform/agentplatform-go/internal/refserver/identity"
)

// The identity family lives in package identity: workspaces, users,
// service accounts, API keys, tunnels, access tokens, workload identity
// federation and device attestation. The names and methods below keep the
// server's exported API as it was; each forwards to the family.

// KeyKind is the kind of an API key (docs/api-choices.md "API keys").
type KeyKind = identity.KeyKind

const (
	PersonalKey       = identity.PersonalKey
	ServiceAccountKey = identity.ServiceAccountKey
	WorkspaceKey      = identity.WorkspaceKey // legacy: belongs to its workspace, acts as nobody
)

// KeySpec describes a key for CreateAPIKey (identity.KeySpec has the
// fields).
type KeySpec = identity.KeySpec

// APIKey is a created key. Secret is what clients send; the server keeps
// only its digest.
type APIKey = identity.APIKey

// KeyStatus is the status of an API key (docs/auth-wire.md 5.1).
type KeyStatus = identity.KeyStatus

const (
	KeyActive   = identity.KeyActive
	KeyInactive = identity.KeyInactive
	KeyArchived = identity.KeyArchived
)

// Access token scopes (docs/auth-wire.md 1.4).
const (
	ScopeWorkspaceDeveloper = identity.ScopeWorkspaceDeveloper // federation default: every non-admin endpoint
	ScopeWorkspaceInference = identity.ScopeWorkspaceInference // federation option: Messages, chat completions, Models
	ScopeWorkspaceMessages  = identity.ScopeWorkspaceMessages  // device attestation: Messages only
)

// ExchangeDenial records why the server refused a token exchange or a
// challenge with the opaque 401 `Authentication failed`
// (docs/auth-wire.md 2.8). The reason never reaches the wire
// (identity.ExchangeDenial has the fields).
type ExchangeDenial = identity.ExchangeDenial

// FederationIssuer configures an identity provider whose JWTs the server
// trusts (docs/auth-wire.md 3.2; identity.FederationIssuer has the fields
// and how keys are found).
type FederationIssuer = identity.FederationIssuer

// FederationRule maps verified JWTs of one issuer to a service account
// (docs/auth-wire.md 3.3, 2.4, 2.5; identity.FederationRule has the
// fields).
type FederationRule = identity.FederationRule

// AppIntegration is a registered iOS or macOS app (docs/auth-wire.md 4.1).
// Its id, clid_…, is the public client id built into the app
// (identity.AppIntegration has the fields).
type AppIntegration = identity.AppIntegration

// AttestationVerifier checks the proofs of the device attestation grant
// (docs/auth-wire.md 4.4). The server checks everything else, and calls a
// verifier without its lock (identity.AttestationVerifier has the
// methods).
type AttestationVerifier = identity.AttestationVerifier

// AttestationCheck is an attestation to verify.
type AttestationCheck = identity.AttestationCheck

// AssertionCheck is an assertion to verify.
type AssertionCheck = identity.AssertionCheck

// AttestationFormatTest is the fmt of the vendor-test-v1 proofs.
const AttestationFormatTest = identity.AttestationFormatTest

// TestAttestationVerifier checks the vendor-test-v1 format
// (docs/auth-wire.md 4.4). It proves nothing about a device.
type TestAttestationVerifier = identity.TestAttestationVerifier

// AddAppIntegration registers an app integration and returns its client id
// (clid_…).
func (s *Server) AddAppIntegration(cfg AppIntegration) (string, error) {
	return s.identity.AddAppIntegration(cfg)
}

// RevokeAppIntegration revokes an integration, permanently: its tokens stop
// working at once (401 `access token has been revoked`) and its devices get
// no new ones. Revoking twice is fine.
func (s *Server) RevokeAppIntegration(clientID string) error {
	return s.identity.RevokeAppIntegration(clientID)
}

// CreateWorkspace adds an active workspace with default settings and
// returns its id. Nobody has API access to it until granted.
func (s *Server) CreateWorkspace(name string) string {
	return s.identity.CreateWorkspace(name)
}

// ArchiveWorkspace archives a workspace, with the rules of the archive
// endpoint: one-way, idempotent, never the default workspace.
func (s *Server) ArchiveWorkspace(id string) error {
	return s.identity.ArchiveWorkspace(id)
}

// CreateUser adds an organization member without API access anywhere.
func (s *Server) CreateUser(name string) string {
	return s.identity.CreateUser(name)
}

// GrantAPIAccess gives a user a role that allows API use in a workspace.
func (s *Server) GrantAPIAccess(userID, workspaceID string) error {
	return s.identity.GrantAPIAccess(userID, workspaceID)
}

// RevokeAPIAccess takes a user's API access in a workspace away. Their key
// scoped to that workspace stops working; an unscoped key no longer reaches it.
func (s *Server) RevokeAPIAccess(userID, workspaceID string) error {
	return s.identity.RevokeAPIAccess(userID, workspaceID)
}

// RemoveUser removes a user from the organization. All their keys become
// archived, permanently: they are not restored after a re-invite.
func (s *Server) RemoveUser(userID string) error {
	return s.identity.RemoveUser(userID)
}

// ReinviteUser makes a removed user a member again, without API access
// anywhere. The keys RemoveUser archived stay archived: archived keys are
// not restored after a re-invite.
func (s *Server) ReinviteUser(userID string) error {
	return s.identity.ReinviteUser(userID)
}

// CreateServiceAccount adds a service account; it can reach the default
// workspace and, once added, other workspaces.
func (s *Server) CreateServiceAccount(name string) string {
	return s.identity.CreateServiceAccount(name)
}

// AddServiceAccountToWorkspace lets a service account reach a workspace.
func (s *Server) AddServiceAccountToWorkspace(saID, workspaceID string) error {
	return s.identity.AddServiceAccountToWorkspace(saID, workspaceID)
}

// RemoveServiceAccountFromWorkspace takes a workspace away from a service
// account. The default workspace is always reachable and cannot be removed.
func (s *Server) RemoveServiceAccountFromWorkspace(saID, workspaceID string) error {
	return s.identity.RemoveServiceAccountFromWorkspace(saID, workspaceID)
}

// ArchiveServiceAccount archives a service account; its keys stop working.
func (s *Server) ArchiveServiceAccount(saID string) error {
	return s.identity.ArchiveServiceAccount(saID)
}

// AddFederationIssuer registers an issuer and returns its fdis_… id.
func (s *Server) AddFederationIssuer(cfg FederationIssuer) (string, error) {
	return s.identity.AddFederationIssuer(cfg)
}

// SetFederationIssuerJWKS replaces an inline issuer's keys (key rotation).
func (s *Server) SetFederationIssuerJWKS(issuerID string, keys jose.JSONWebKeySet) error {
	return s.identity.SetFederationIssuerJWKS(issuerID, keys)
}

// ArchiveFederationIssuer disables an issuer, for good: every rule on it
// then rejects exchanges. Tokens already issued keep working until they
// expire (docs/auth-wire.md 8, C11). Archiving twice is fine.
func (s *Server) ArchiveFederationIssuer(issuerID string) error {
	return s.identity.ArchiveFederationIssuer(issuerID)
}

// DeleteFederationIssuer removes an issuer. Its rules stay but reject every
// exchange, as if the issuer were archived.
func (s *Server) DeleteFederationIssuer(issuerID string) error {
	return s.identity.DeleteFederationIssuer(issuerID)
}

// AddFederationRule registers a rule and returns its fdrl_… id.
func (s *Server) AddFederationRule(cfg FederationRule) (string, error) {
	return s.identity.AddFederationRule(cfg)
}

// ArchiveFederationRule disables a rule, for good: exchanges naming it are
// rejected; tokens already issued keep working until they expire
// (docs/auth-wire.md 8, C11).
func (s *Server) ArchiveFederationRule(ruleID string) error {
	return s.identity.ArchiveFederationRule(ruleID)
}

// DeleteFederationRule removes a rule: exchanges naming it are rejected as
// for an unknown rule.
func (s *Server) DeleteFederationRule(ruleID string) error {
	return s.identity.DeleteFederationRule(ruleID)
}

// CreateAPIKey creates an active key. The owner must exist and be able to
// use the API in the scoped workspace, as the console requires at creation.
func (s *Server) CreateAPIKey(spec KeySpec) (APIKey, error) {
	return s.identity.CreateAPIKey(spec)
}

// SetAPIKeyStatus moves a key between states as the console does: disable (inactive), re-enable (active), delete (archived, permanent).
// An expired key can only be deleted.
func (s *Server) SetAPIKeyStatus(id string, status KeyStatus) error {
	return s.identity.SetAPIKeyStatus(id, status)
}

// ExchangeDenials returns the recorded denials, oldest first (at most the
// last 1000).
func (s *Server) ExchangeDenials() []ExchangeDenial {
	return s.identity.ExchangeDenials()
}
