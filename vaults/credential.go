package vaults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Credential is a credential stored in a vault (type "vault_credential").
// No response carries its secrets.
type Credential struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`                    // "vcrd_…"
	VaultID     string            `json:"vault_id"`              // "vlt_…"
	DisplayName string            `json:"display_name,omitzero"` // "" when unset (null on the wire, and written back as null)
	Metadata    map[string]string `json:"metadata"`
	// Auth is *MCPOAuthAuth, *StaticBearerAuth, *EnvironmentVariableAuth
	// or, for kinds newer than this SDK, *UnknownAuth.
	Auth       Auth      `json:"auth"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	ArchivedAt time.Time `json:"archived_at,omitzero"` // zero while active
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainCredential Credential

// MarshalJSON writes the credential as the API does: an unset display name
// is null.
func (c Credential) MarshalJSON() ([]byte, error) {
	if c.DisplayName == "" {
		c.Extra = withNull(c.Extra, "display_name")
	}
	return wire.Marshal(plainCredential(c))
}

// withNull returns a copy of extra with name set to null, for a member the
// API sends as null when unset and the type holds as "".
func withNull(extra map[string]json.RawMessage, name string) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(extra)+1)
	for k, v := range extra {
		out[k] = v
	}
	out[name] = json.RawMessage("null")
	return out
}

// UnmarshalJSON decodes the credential, keeping unknown members.
func (c *Credential) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainCredential)(c), unions)
}

// Archived reports whether the credential has been archived.
func (c *Credential) Archived() bool { return !c.ArchivedAt.IsZero() }

// Auth is how a credential authenticates: *MCPOAuthAuth, *StaticBearerAuth,
// *EnvironmentVariableAuth or *UnknownAuth.
type Auth interface{ isAuth() }

// MCPOAuthAuth is an OAuth access token for an MCP server (type "mcp_oauth").
type MCPOAuthAuth struct {
	MCPServerURL string `json:"mcp_server_url"`
	// ExpiresAt is zero when the token's expiry is not known.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Refresh is nil when the credential cannot refresh its token.
	Refresh *Refresh                   `json:"refresh"`
	Extra   map[string]json.RawMessage `json:",embed"`
}

// Refresh is a stored refresh configuration, without its refresh token or
// client secret.
type Refresh struct {
	ClientID      string `json:"client_id"`
	TokenEndpoint string `json:"token_endpoint"`
	// TokenEndpointAuth is how the client authenticates to the token
	// endpoint: "none", "client_secret_basic" or "client_secret_post".
	TokenEndpointAuth TokenEndpointAuth `json:"token_endpoint_auth"`
	// Resource and Scope are "" when unset (null on the wire, and written
	// back as null).
	Resource string                     `json:"resource,omitzero"`
	Scope    string                     `json:"scope,omitzero"`
	Extra    map[string]json.RawMessage `json:",embed"`
}

type plainRefresh Refresh

// MarshalJSON writes the refresh configuration as the API does: an unset
// resource or scope is null.
func (r Refresh) MarshalJSON() ([]byte, error) {
	if r.Resource == "" {
		r.Extra = withNull(r.Extra, "resource")
	}
	if r.Scope == "" {
		r.Extra = withNull(r.Extra, "scope")
	}
	return wire.Marshal(plainRefresh(r))
}

// UnmarshalJSON decodes the refresh configuration, keeping unknown members.
func (r *Refresh) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainRefresh)(r))
}

// TokenEndpointAuth names a token endpoint's client authentication.
type TokenEndpointAuth struct {
	Type  string                     `json:"type"`
	Extra map[string]json.RawMessage `json:",embed"`
}

// StaticBearerAuth is a static bearer token for an MCP server (type
// "static_bearer").
type StaticBearerAuth struct {
	MCPServerURL string                     `json:"mcp_server_url"`
	Extra        map[string]json.RawMessage `json:",embed"`
}

// EnvironmentVariableAuth is a secret substituted into the agent's
// outbound requests (type "environment_variable").
type EnvironmentVariableAuth struct {
	SecretName string `json:"secret_name"`
	// Networking is *UnrestrictedNetworking, *LimitedNetworking or
	// *UnknownNetworking.
	Networking        Networking                 `json:"networking"`
	InjectionLocation InjectionLocation          `json:"injection_location"`
	Extra             map[string]json.RawMessage `json:",embed"`
}

// InjectionLocation is where in an outbound request the secret is
// substituted.
type InjectionLocation struct {
	Body   bool                       `json:"body"`
	Header bool                       `json:"header"`
	Extra  map[string]json.RawMessage `json:",embed"`
}

type plainInjectionLocation InjectionLocation

// MarshalJSON writes the location as the API does.
func (l InjectionLocation) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainInjectionLocation(l))
}

// UnmarshalJSON decodes the location, keeping unknown members.
func (l *InjectionLocation) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainInjectionLocation)(l))
}

// UnknownAuth is an auth of a kind this SDK does not know, kept as received.
type UnknownAuth struct {
	Type string          // the auth's "type"
	JSON json.RawMessage // the whole object
}

func (*MCPOAuthAuth) isAuth()            {}
func (*StaticBearerAuth) isAuth()        {}
func (*EnvironmentVariableAuth) isAuth() {}
func (*UnknownAuth) isAuth()             {}

// Networking is where a secret may be substituted:
// *UnrestrictedNetworking, *LimitedNetworking or *UnknownNetworking. The
// same types are sent in params.
type Networking interface{ isNetworking() }

// UnrestrictedNetworking substitutes the secret on any host the
// environment lets the session reach (type "unrestricted").
type UnrestrictedNetworking struct {
	Extra map[string]json.RawMessage `json:",embed"`
}

// LimitedNetworking substitutes the secret only on requests to the listed
// hosts (type "limited"): 1 to 16 host names, IPv4 addresses or "*."
// wildcards, which match subdomains but not the domain itself.
type LimitedNetworking struct {
	AllowedHosts []string                   `json:"allowed_hosts"`
	Extra        map[string]json.RawMessage `json:",embed"`
}

// UnknownNetworking is a networking kind this SDK does not know.
type UnknownNetworking struct {
	Type string
	JSON json.RawMessage
}

func (*UnrestrictedNetworking) isNetworking() {}
func (*LimitedNetworking) isNetworking()      {}
func (*UnknownNetworking) isNetworking()      {}

const (
	authMCPOAuth     = "mcp_oauth"
	authStaticBearer = "static_bearer"
	authEnvVar       = "environment_variable"
)

type (
	plainMCPOAuthAuth MCPOAuthAuth
	plainStaticBearer StaticBearerAuth
	plainEnvVarAuth   EnvironmentVariableAuth
	plainUnrestricted UnrestrictedNetworking
	plainLimited      LimitedNetworking
)

// MarshalJSON writes the auth with its type first.
func (a MCPOAuthAuth) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(authMCPOAuth, plainMCPOAuthAuth(a))
}

// MarshalJSON writes the auth with its type first.
func (a StaticBearerAuth) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(authStaticBearer, plainStaticBearer(a))
}

// MarshalJSON writes the auth with its type first.
func (a EnvironmentVariableAuth) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(authEnvVar, plainEnvVarAuth(a))
}

// MarshalJSON writes the object back as it was received.
func (a UnknownAuth) MarshalJSON() ([]byte, error) { return wire.Unknown(a.Type, a.JSON) }

// MarshalJSON writes the networking with its type first.
func (n UnrestrictedNetworking) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("unrestricted", plainUnrestricted(n))
}

// MarshalJSON writes the networking with its type first.
func (n LimitedNetworking) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("limited", plainLimited(n))
}

// MarshalJSON writes the object back as it was received.
func (n UnknownNetworking) MarshalJSON() ([]byte, error) { return wire.Unknown(n.Type, n.JSON) }

// UnmarshalJSON decodes the auth's members; its "type" is not read.
func (a *MCPOAuthAuth) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainMCPOAuthAuth)(a), &a.Extra)
}

// UnmarshalJSON decodes the auth's members; its "type" is not read.
func (a *StaticBearerAuth) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainStaticBearer)(a), &a.Extra)
}

// UnmarshalJSON decodes the auth's members; its "type" is not read.
func (a *EnvironmentVariableAuth) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainEnvVarAuth)(a), &a.Extra, unions)
}

// UnmarshalJSON decodes the networking's members; its "type" is not read.
func (n *UnrestrictedNetworking) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainUnrestricted)(n), &n.Extra)
}

// UnmarshalJSON decodes the networking's members; its "type" is not read.
func (n *LimitedNetworking) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainLimited)(n), &n.Extra)
}

// unions decodes the Auth and Networking fields.
var unions = wire.Join(wire.Union(decodeAuth), wire.Union(decodeNetworking))

func decodeAuth(typ string, obj []byte) (Auth, error) {
	var a interface {
		Auth
		json.Unmarshaler
	}
	switch typ {
	case authMCPOAuth:
		a = new(MCPOAuthAuth)
	case authStaticBearer:
		a = new(StaticBearerAuth)
	case authEnvVar:
		a = new(EnvironmentVariableAuth)
	default:
		return &UnknownAuth{Type: typ, JSON: bytes.Clone(obj)}, nil
	}
	if err := a.UnmarshalJSON(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return a, nil
}

func decodeNetworking(typ string, obj []byte) (Networking, error) {
	var n interface {
		Networking
		json.Unmarshaler
	}
	switch typ {
	case "unrestricted":
		n = new(UnrestrictedNetworking)
	case "limited":
		n = new(LimitedNetworking)
	default:
		return &UnknownNetworking{Type: typ, JSON: bytes.Clone(obj)}, nil
	}
	if err := n.UnmarshalJSON(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return n, nil
}

// Validation is the result of Validate (type "vault_credential_validation").
type Validation struct {
	Type         string `json:"type"`
	CredentialID string `json:"credential_id"`
	VaultID      string `json:"vault_id"`
	// Status is "valid", "invalid" (the server refused the credential and
	// a refresh did not help: the user must authorize again) or "unknown"
	// (validate again to find out).
	Status          string                     `json:"status"`
	HasRefreshToken bool                       `json:"has_refresh_token"`
	MCPProbe        *Probe                     `json:"mcp_probe"` // nil: the probe succeeded or did not run
	Refresh         *RefreshOutcome            `json:"refresh"`   // nil: no refresh was tried
	ValidatedAt     time.Time                  `json:"validated_at"`
	Extra           map[string]json.RawMessage `json:",embed"`
}

// Probe is the failing step of the probe.
type Probe struct {
	Method       string                     `json:"method"` // "initialize", "tools/list", …
	HTTPResponse *HTTPResponse              `json:"http_response"`
	Extra        map[string]json.RawMessage `json:",embed"`
}

// RefreshOutcome is a refresh tried during validation.
type RefreshOutcome struct {
	// Status is "succeeded", "failed", "connect_error" or "no_refresh_token".
	Status       string                     `json:"status"`
	HTTPResponse *HTTPResponse              `json:"http_response"`
	Extra        map[string]json.RawMessage `json:",embed"`
}

// HTTPResponse is a response captured by a probe; Body may be truncated
// and has sensitive values scrubbed.
type HTTPResponse struct {
	StatusCode    int                        `json:"status_code"`
	ContentType   string                     `json:"content_type"`
	Body          string                     `json:"body"`
	BodyTruncated bool                       `json:"body_truncated"`
	Extra         map[string]json.RawMessage `json:",embed"`
}

type plainValidation Validation

// MarshalJSON writes the validation as the API does.
func (v Validation) MarshalJSON() ([]byte, error) { return wire.Marshal(plainValidation(v)) }

// UnmarshalJSON decodes the validation, keeping unknown members.
func (v *Validation) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainValidation)(v))
}
