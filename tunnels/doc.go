// Package tunnels manages tunnels, a research preview: hostnames that route
// MCP server calls to private tool servers. MCP server URLs whose host is a
// subdomain of a tunnel's Domain go through the tunnel.
//
//	t, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "build farm"})
//	for t, err := range client.Tunnels.All(ctx, tunnels.ListParams{}) { … } // newest first
//
// Every call sends the beta value the preview requires. The API may
// change without a deprecation period.
//
// Service.Legacy calls the admin endpoints under /v1/organizations/tunnels
// that /v1/tunnels supersedes, for code that has not moved yet: the same
// tunnels and records, an admin key, no beta value. It is deprecated: the
// organization endpoints are served only during the migration window.
package tunnels
