// Package vaults is the reference server's vaults family: vaults and the
// credentials in them (MCP OAuth tokens, static bearer tokens and
// environment-variable secrets), as docs/vaults-wire.md describes them.
//
// Secret values are write-only: they are stored for the engine and the
// validation call, and no response, error or log line carries them. The
// rest of the server reads the family through two lookups, both under the
// server's lock: VaultLocked, which sessions and deployments use to check
// vault_ids, and MCPCredentialLocked, which the session engine uses to find
// the credential of an MCP server.
package vaults
