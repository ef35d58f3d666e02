// Package tunnels manages tunnels, a research preview: hostnames that route
// MCP server calls to private tool servers. MCP server URLs whose host is a
// subdomain of a tunnel's Domain go through the tunnel.
//
//	t, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "build farm"})
//	for t, err := range client.Tunnels.All(ctx, tunnels.ListParams{}) { … } // newest first
//
// A tunnel's connector runs with its token, a credential: RevealToken
// returns it and RotateToken replaces it. A Token prints as "[redacted]";
// string(tok.TunnelToken) is the value. Certificates registers the CA
// certificates (at most two in use) the platform checks the gateway
// against:
//
//	tok, err := client.Tunnels.RevealToken(ctx, t.ID)
//	cert, err := client.Tunnels.Certificates.Create(ctx, t.ID, tunnels.CertificateCreateParams{CACertificatePEM: caPEM})
//
// Every call sends the beta value the preview requires. The API may
// change without a deprecation period.
//
// Service.Legacy calls the admin endpoints under /v1/organizations/tunnels
// that /v1/tunnels supersedes, for code that has not moved yet: the same
// tunnels and records, an admin key, no beta value. It is deprecated: the
// organization endpoints are served only during the migration window.
package tunnels
