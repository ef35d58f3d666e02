package tunnels

import "time"

// Beta is the vendor-beta value the tunnels endpoints require; the SDK sends it.
const Beta = "mcp-tunnels-2026-06-22"

// Tunnel is a routed hostname (type "tunnel").
type Tunnel struct {
	Type       string    `json:"type"`
	ID         string    `json:"id"`
	ArchivedAt time.Time `json:"archived_at,omitzero"` // zero while active
	CreatedAt  time.Time `json:"created_at"`
	// DisplayName is "" when none was given (null on the wire).
	DisplayName string `json:"display_name"`
	// Domain is the assigned hostname: globally unique, never reused.
	Domain string `json:"domain"`
}

// Archived reports whether the tunnel has been archived.
func (t *Tunnel) Archived() bool { return !t.ArchivedAt.IsZero() }
