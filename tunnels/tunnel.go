package tunnels

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
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

// Token is a tunnel's connector token (type "tunnel_token"), the
// credential its connector runs with. Only RevealToken and RotateToken
// return one. TunnelToken is a param.Secret: printing or logging a Token
// shows "[redacted]"; string(tok.TunnelToken) is the value to hand to the
// connector.
type Token struct {
	Type string `json:"type"`
	// ID names the current value: it changes when the token is rotated.
	ID          string       `json:"id"`
	TunnelToken param.Secret `json:"tunnel_token"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainToken Token

// MarshalJSON writes the token as the API sends it, its value included.
func (t Token) MarshalJSON() ([]byte, error) { return wire.Marshal(plainToken(t)) }

// UnmarshalJSON reads a token, keeping unknown members in Extra.
func (t *Token) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainToken)(t)) }

// Certificate is a public CA certificate registered on a tunnel (type
// "tunnel_certificate"): the platform checks the gateway's server
// certificate against the tunnel's certificates that are not archived.
type Certificate struct {
	Type     string `json:"type"`
	ID       string `json:"id"` // "tcrt_…"
	TunnelID string `json:"tunnel_id"`
	// Fingerprint is the lowercase hex SHA-256 of the certificate's DER.
	Fingerprint string `json:"fingerprint"`
	// ExpiresAt is zero for a certificate that does not expire.
	ExpiresAt  time.Time `json:"expires_at,omitzero"`
	ArchivedAt time.Time `json:"archived_at,omitzero"` // zero while trusted
	CreatedAt  time.Time `json:"created_at"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the certificate has been archived.
func (c *Certificate) Archived() bool { return !c.ArchivedAt.IsZero() }

type plainCertificate Certificate

// MarshalJSON writes the certificate as the API sends it, Extra included.
func (c Certificate) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCertificate(c)) }

// UnmarshalJSON reads a certificate, keeping unknown members in Extra.
func (c *Certificate) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainCertificate)(c))
}
