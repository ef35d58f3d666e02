// Package identity is the identity family of the reference server: who a
// request is, which workspace it runs in, and what it may call. It follows
// docs/api-choices.md ("Workspace selection", "API keys", "Workspaces",
// "Tunnels") and docs/auth-wire.md (credentials, the token exchanges, the
// API key admin endpoints).
//
// # What it serves
//
//   - The directory: workspaces, users and service accounts, and who may use
//     the API where. Tests shape it with the exported methods
//     (CreateWorkspace, CreateUser, GrantAPIAccess, CreateServiceAccount,
//     AddServiceAccountToWorkspace, RemoveUser, ...); over HTTP, the admin
//     API creates, lists, retrieves, updates and archives workspaces
//     (/v1/organizations/workspaces) with their field rules (data
//     residency, display color, the write-once external key, tags).
//   - API keys: personal, service account and legacy workspace keys,
//     scoped or not, with expiry and status (CreateAPIKey,
//     SetAPIKeyStatus), and the admin endpoints that list, retrieve and
//     update them (/v1/organizations/api_keys). The server keeps only a
//     digest of each secret.
//   - Tunnels: records of the workspace a create request ran in, each with
//     a domain derived from its id and never reused, under /v1/tunnels and
//     the legacy admin paths /v1/organizations/tunnels.
//   - The token exchanges, which take no credential: POST /v1/oauth/token
//     with the jwt-bearer grant (workload identity federation: issuers and
//     rules configured with AddFederationIssuer and AddFederationRule, JWTs
//     checked with go-jose) and the device attestation grant (app
//     integrations, POST /v1/oauth/device_attestation/challenge, proofs
//     checked by TestAttestationVerifier), and the access tokens they
//     issue. Every refused exchange is the same opaque 401; ExchangeDenials
//     keeps the reason for tests.
//
// # In the server
//
// New builds the family from Deps (the server's clock, ids and logger in
// kit.Deps, the Lock, and whether the server is the cloud edition) and
// seeds the organization: its id, the default workspace, an owner and the
// owner's key (Seed). Service.Routes are its endpoints.
//
// The request pipeline calls three methods on every authenticated route,
// in this order: Authenticate (the credential, API key or access token, to
// a Principal), SelectWorkspace (the workspace the request runs in) and
// CheckAccess (the admin-API rule and an access token's scope; IsAdminPath
// tells which routes are admin). A Principal is a copy: it implements
// kit.Caller and holds nothing guarded by the lock.
//
// Other families learn about a workspace through Workspace or
// WorkspaceLocked, which return a copy (WorkspaceInfo): whether it exists,
// is archived or is the default, and its data residency, which Messages
// applies.
//
// The narrow access-token scopes allow routes by their path; the paths of
// the Messages family come from package messages.
//
// # Lock discipline
//
// The family's state (directory, keys, tunnels, tokens, federation issuers
// and rules, app integrations) is guarded by Deps.Lock, which is the
// server's one lock, as it was before the family moved; nothing else in
// the server holds that lock while calling in today, but WorkspaceLocked
// is there for the families that will. Methods take the lock themselves,
// except the ...Locked ones, which expect the caller to hold it; none calls
// out of the family while holding it (the logger aside). Two parts have
// locks of their own: the denial log, written with or without Deps.Lock
// held, and each issuer's fetched key set, whose lock is held during a
// fetch and never together with Deps.Lock. A JWT, an attestation or an
// assertion is verified without Deps.Lock; the exchange then checks again,
// under it, the state it depends on before it stores anything. Without a
// Lock (tests), the family uses a mutex of its own.
package identity
