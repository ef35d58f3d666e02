package tunnels

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// beta is the vendor-beta value the tunnels endpoints require; the SDK sends it.
const beta = "mcp-tunnels-2026-06-22"

// Tunnel is a routed hostname (type "tunnel").
type Tunnel struct {
	Type       string    `json:"type"`
	ID         string    `json:"id"`
	ArchivedAt time.Time `json:"archived_at,omitzero"` // zero while active
	CreatedAt  time.Time `json:"created_at"`
	// DisplayName is "" when none was given (null on the wire).
	DisplayName string `json:"display_name,omitzero"`
	// Domain is the assigned hostname: globally unique, never reused.
	Domain string `json:"domain"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the tunnel has been archived.
func (t *Tunnel) Archived() bool { return !t.ArchivedAt.IsZero() }

type plainTunnel Tunnel

// MarshalJSON writes the tunnel as the API sends it, Extra included.
func (t Tunnel) MarshalJSON() ([]byte, error) { return wire.Marshal(plainTunnel(t)) }

// UnmarshalJSON reads a tunnel, keeping unknown members in Extra.
func (t *Tunnel) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainTunnel)(t)) }
