// Package vaults manages vaults (docs/vaults-wire.md): named sets of
// credentials that sessions and deployments name in vault_ids, so that the
// agent can authenticate to MCP servers and other services without the
// secrets ever reaching the application again.
//
//	v, err := client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: "GitHub bot"})
//	cred, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
//		Auth: vaults.StaticBearerParams{MCPServerURL: "https://mcp.example.com/mcp", Token: param.Secret(token)},
//	})
//	s, err := client.Sessions.Create(ctx, sessions.CreateParams{…, VaultIDs: []string{v.ID}})
//
// Credentials come in three kinds, each a variant of the sealed AuthParam
// (create), AuthUpdateParam (update) and Auth (responses) unions: MCP OAuth
// tokens with an optional refresh configuration, static bearer tokens for
// MCP servers, and environment-variable secrets substituted into the
// agent's outbound requests. Auth's Unknown variant keeps a kind newer than
// this SDK as received.
//
// Secrets are write-only: no response carries them, and every secret in a
// params value is a param.Secret, so printing it with any fmt verb or
// logging it shows "[redacted]". Vault methods are on Service, credential
// methods on Service.Credentials. Every call sends the vendor-beta value
// "managed-agents-2026-04-01".
package vaults
