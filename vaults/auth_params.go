package vaults

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
)

// Request parameters. Every secret is a param.Secret, and every type that
// carries one has a String and a LogValue that go through fmt, where the
// secret shows as "[redacted]": only the JSON request body carries it.

// CredentialCreateParams is the body of CredentialsService.Create.
type CredentialCreateParams struct {
	// Auth is required: MCPOAuthParams, StaticBearerParams or
	// EnvironmentVariableParams.
	Auth        AuthParam         `json:"auth"`
	DisplayName string            `json:"display_name,omitzero"` // at most 255 characters
	Metadata    map[string]string `json:"metadata,omitzero"`
}

// CredentialUpdateParams is the body of CredentialsService.Update. Zero
// fields are left unchanged.
type CredentialUpdateParams struct {
	// Auth, when set, must be the update variant of the credential's kind.
	Auth        AuthUpdateParam    `json:"auth,omitempty"`
	DisplayName string             `json:"display_name,omitzero"` // "" keeps it
	Metadata    map[string]*string `json:"metadata,omitzero"`     // a patch: nil deletes a key
}

// AuthParam is a new credential's auth: MCPOAuthParams, StaticBearerParams
// or EnvironmentVariableParams.
type AuthParam interface{ isAuthParam() }

// AuthUpdateParam changes a credential's auth: MCPOAuthUpdateParams,
// StaticBearerUpdateParams or EnvironmentVariableUpdateParams.
type AuthUpdateParam interface{ isAuthUpdateParam() }

// MCPOAuthParams is an OAuth access token for an MCP server.
type MCPOAuthParams struct {
	MCPServerURL string       `json:"mcp_server_url"` // required; immutable
	AccessToken  param.Secret `json:"access_token"`   // required
	// ExpiresAt, when set, must be in the future.
	ExpiresAt time.Time      `json:"expires_at,omitzero"`
	Refresh   *RefreshParams `json:"refresh,omitempty"`
}

// RefreshParams lets the platform refresh an expired access token.
type RefreshParams struct {
	ClientID      string       `json:"client_id"`      // required; immutable
	RefreshToken  param.Secret `json:"refresh_token"`  // required
	TokenEndpoint string       `json:"token_endpoint"` // required; immutable
	// TokenEndpointAuth is required: TokenEndpointAuthNone,
	// ClientSecretBasic or ClientSecretPost.
	TokenEndpointAuth TokenEndpointAuthParam `json:"token_endpoint_auth"`
	Resource          string                 `json:"resource,omitzero"`
	Scope             string                 `json:"scope,omitzero"`
}

// TokenEndpointAuthParam is a token endpoint's client authentication:
// TokenEndpointAuthNone, ClientSecretBasic or ClientSecretPost.
type TokenEndpointAuthParam interface{ isTokenEndpointAuth() }

// TokenEndpointAuthNone is a token endpoint that takes no client authentication.
type TokenEndpointAuthNone struct{}

// ClientSecretBasic sends the client secret with HTTP Basic authentication.
type ClientSecretBasic struct {
	ClientSecret param.Secret `json:"client_secret"` // required
}

// ClientSecretPost sends the client secret in the POST body.
type ClientSecretPost struct {
	ClientSecret param.Secret `json:"client_secret"` // required
}

// StaticBearerParams is a static bearer token (an API key, a personal
// access token) for an MCP server.
type StaticBearerParams struct {
	MCPServerURL string       `json:"mcp_server_url"` // required; immutable
	Token        param.Secret `json:"token"`          // required
}

// EnvironmentVariableParams is a secret the platform substitutes into the
// agent's outbound requests where the variable's placeholder appears.
type EnvironmentVariableParams struct {
	// SecretName is required and immutable: a letter or "_" first, then
	// letters, digits and "_".
	SecretName  string       `json:"secret_name"`
	SecretValue param.Secret `json:"secret_value"` // required
	// Networking is required: UnrestrictedNetworking or LimitedNetworking.
	Networking Networking `json:"networking"`
	// InjectionLocation nil substitutes in both headers and bodies.
	InjectionLocation *InjectionLocation `json:"injection_location,omitempty"`
}

// MCPOAuthUpdateParams changes an MCP OAuth credential.
type MCPOAuthUpdateParams struct {
	AccessToken param.Secret `json:"access_token,omitzero"` // "" keeps it
	// ExpiresAt zero keeps the stored expiry; send it with a new token.
	ExpiresAt time.Time            `json:"expires_at,omitzero"`
	Refresh   *RefreshUpdateParams `json:"refresh,omitempty"`
}

// RefreshUpdateParams changes a stored refresh configuration.
type RefreshUpdateParams struct {
	RefreshToken param.Secret `json:"refresh_token,omitzero"` // "" keeps it
	// Scope: omitted keeps it; param.Value("") clears it.
	Scope param.Nullable[string] `json:"scope,omitzero"`
	// ClientSecret replaces the stored client secret ("" keeps it). The
	// credential keeps its token endpoint authentication type.
	ClientSecret param.Secret `json:"-"`
}

// StaticBearerUpdateParams rotates a static bearer token.
type StaticBearerUpdateParams struct {
	Token param.Secret `json:"token,omitzero"` // "" keeps it
}

// EnvironmentVariableUpdateParams changes an environment-variable secret.
type EnvironmentVariableUpdateParams struct {
	SecretValue param.Secret `json:"secret_value,omitzero"` // "" keeps it
	// Networking, when set, replaces the stored one as a whole.
	Networking Networking `json:"networking,omitempty"`
	// InjectionLocation: a nil member keeps its setting.
	InjectionLocation *InjectionLocationUpdate `json:"injection_location,omitempty"`
}

// InjectionLocationUpdate changes where a secret is substituted; at least
// one location must remain enabled.
type InjectionLocationUpdate struct {
	Body   *bool `json:"body,omitempty"`
	Header *bool `json:"header,omitempty"`
}

func (MCPOAuthParams) isAuthParam()            {}
func (StaticBearerParams) isAuthParam()        {}
func (EnvironmentVariableParams) isAuthParam() {}

func (MCPOAuthUpdateParams) isAuthUpdateParam()            {}
func (StaticBearerUpdateParams) isAuthUpdateParam()        {}
func (EnvironmentVariableUpdateParams) isAuthUpdateParam() {}

func (TokenEndpointAuthNone) isTokenEndpointAuth() {}
func (ClientSecretBasic) isTokenEndpointAuth()     {}
func (ClientSecretPost) isTokenEndpointAuth()      {}

// MarshalJSON writes the auth with its type.
func (p MCPOAuthParams) MarshalJSON() ([]byte, error) {
	type plain MCPOAuthParams
	return wire.Tagged(authMCPOAuth, plain(p))
}

// MarshalJSON writes the auth with its type.
func (p StaticBearerParams) MarshalJSON() ([]byte, error) {
	type plain StaticBearerParams
	return wire.Tagged(authStaticBearer, plain(p))
}

// MarshalJSON writes the auth with its type.
func (p EnvironmentVariableParams) MarshalJSON() ([]byte, error) {
	type plain EnvironmentVariableParams
	return wire.Tagged(authEnvVar, plain(p))
}

// MarshalJSON writes the update with its type.
func (p MCPOAuthUpdateParams) MarshalJSON() ([]byte, error) {
	type plain MCPOAuthUpdateParams
	return wire.Tagged(authMCPOAuth, plain(p))
}

// MarshalJSON writes the update with its type.
func (p StaticBearerUpdateParams) MarshalJSON() ([]byte, error) {
	type plain StaticBearerUpdateParams
	return wire.Tagged(authStaticBearer, plain(p))
}

// MarshalJSON writes the update with its type.
func (p EnvironmentVariableUpdateParams) MarshalJSON() ([]byte, error) {
	type plain EnvironmentVariableUpdateParams
	return wire.Tagged(authEnvVar, plain(p))
}

// MarshalJSON writes the refresh update; a client secret goes in a
// token_endpoint_auth object whose type the server ignores.
func (p RefreshUpdateParams) MarshalJSON() ([]byte, error) {
	type plain RefreshUpdateParams
	var ep *ClientSecretBasic
	if p.ClientSecret != "" {
		ep = &ClientSecretBasic{ClientSecret: p.ClientSecret}
	}
	return wire.Marshal(struct {
		plain
		TokenEndpointAuth *ClientSecretBasic `json:"token_endpoint_auth,omitempty"`
	}{plain(p), ep})
}

// MarshalJSON writes {"type": "none"}.
func (TokenEndpointAuthNone) MarshalJSON() ([]byte, error) { return []byte(`{"type":"none"}`), nil }

// MarshalJSON writes the authentication with its type.
func (p ClientSecretBasic) MarshalJSON() ([]byte, error) {
	type plain ClientSecretBasic
	return wire.Tagged("client_secret_basic", plain(p))
}

// MarshalJSON writes the authentication with its type.
func (p ClientSecretPost) MarshalJSON() ([]byte, error) {
	type plain ClientSecretPost
	return wire.Tagged("client_secret_post", plain(p))
}

// redacted prints v, a plain copy of a params value, with fmt, which
// shows each param.Secret as "[redacted]".
func redacted(v any) string { return fmt.Sprintf("%+v", v) }

// String shows the params with their secrets redacted.
func (p CredentialCreateParams) String() string {
	type plain CredentialCreateParams
	return redacted(plain(p))
}

// LogValue logs the params with their secrets redacted.
func (p CredentialCreateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the params with their secrets redacted.
func (p CredentialUpdateParams) String() string {
	type plain CredentialUpdateParams
	return redacted(plain(p))
}

// LogValue logs the params with their secrets redacted.
func (p CredentialUpdateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the auth with its secret redacted.
func (p MCPOAuthParams) String() string {
	type plain MCPOAuthParams
	return redacted(plain(p))
}

// LogValue logs the auth with its secret redacted.
func (p MCPOAuthParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the refresh configuration with its secrets redacted.
func (p RefreshParams) String() string {
	type plain RefreshParams
	return redacted(plain(p))
}

// LogValue logs the refresh configuration with its secrets redacted.
func (p RefreshParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the auth with its secret redacted.
func (p StaticBearerParams) String() string {
	type plain StaticBearerParams
	return redacted(plain(p))
}

// LogValue logs the auth with its secret redacted.
func (p StaticBearerParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the auth with its secret redacted.
func (p EnvironmentVariableParams) String() string {
	type plain EnvironmentVariableParams
	return redacted(plain(p))
}

// LogValue logs the auth with its secret redacted.
func (p EnvironmentVariableParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the update with its secret redacted.
func (p MCPOAuthUpdateParams) String() string {
	type plain MCPOAuthUpdateParams
	return redacted(plain(p))
}

// LogValue logs the update with its secret redacted.
func (p MCPOAuthUpdateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the update with its secrets redacted.
func (p RefreshUpdateParams) String() string {
	type plain RefreshUpdateParams
	return redacted(plain(p))
}

// LogValue logs the update with its secrets redacted.
func (p RefreshUpdateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the update with its secret redacted.
func (p StaticBearerUpdateParams) String() string {
	type plain StaticBearerUpdateParams
	return redacted(plain(p))
}

// LogValue logs the update with its secret redacted.
func (p StaticBearerUpdateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the update with its secret redacted.
func (p EnvironmentVariableUpdateParams) String() string {
	type plain EnvironmentVariableUpdateParams
	return redacted(plain(p))
}

// LogValue logs the update with its secret redacted.
func (p EnvironmentVariableUpdateParams) LogValue() slog.Value { return slog.StringValue(p.String()) }

// String shows the authentication with its secret redacted.
func (p ClientSecretBasic) String() string {
	type plain ClientSecretBasic
	return redacted(plain(p))
}

// String shows the authentication with its secret redacted.
func (p ClientSecretPost) String() string {
	type plain ClientSecretPost
	return redacted(plain(p))
}

// Local rules (docs/vaults-wire.md 3), named as the server names them.

func required(field string, empty bool) error {
	if empty {
		return &apierror.ValidationError{Field: field, Rule: "is required"}
	}
	return nil
}

func (p *CredentialCreateParams) validate() error {
	if err := check.Length("display_name", p.DisplayName, 0, maxDisplayName); err != nil {
		return err
	}
	if err := check.Metadata(p.Metadata); err != nil {
		return err
	}
	switch a := p.Auth.(type) {
	case nil:
		return required("auth", true)
	case MCPOAuthParams:
		if err := required("auth.mcp_server_url", a.MCPServerURL == ""); err != nil {
			return err
		}
		if err := required("auth.access_token", a.AccessToken == ""); err != nil {
			return err
		}
		if r := a.Refresh; r != nil {
			for _, f := range []struct {
				name  string
				empty bool
			}{{"client_id", r.ClientID == ""}, {"refresh_token", r.RefreshToken == ""},
				{"token_endpoint", r.TokenEndpoint == ""}, {"token_endpoint_auth", r.TokenEndpointAuth == nil}} {
				if err := required("auth.refresh."+f.name, f.empty); err != nil {
					return err
				}
			}
		}
	case StaticBearerParams:
		if err := required("auth.mcp_server_url", a.MCPServerURL == ""); err != nil {
			return err
		}
		return required("auth.token", a.Token == "")
	case EnvironmentVariableParams:
		if err := required("auth.secret_name", a.SecretName == ""); err != nil {
			return err
		}
		if err := required("auth.secret_value", a.SecretValue == ""); err != nil {
			return err
		}
		if err := required("auth.networking", a.Networking == nil); err != nil {
			return err
		}
		if l, ok := a.Networking.(*LimitedNetworking); ok && (len(l.AllowedHosts) == 0 || len(l.AllowedHosts) > 16) {
			return &apierror.ValidationError{Field: "auth.networking.allowed_hosts", Rule: "must have between 1 and 16 items"}
		}
	}
	return nil
}

func (p *CredentialUpdateParams) validate() error {
	if err := check.OptionalLength("display_name", p.DisplayName, 1, maxDisplayName); err != nil {
		return err
	}
	return check.MetadataPatch(p.Metadata)
}
