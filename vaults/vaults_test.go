package vaults_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/vaults"
)

func TestVaultLifecycle(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()
	v, err := client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: "bot", Metadata: map[string]string{"team": "a"}})
	require.NoError(t, err)
	require.Equal(t, "vault", v.Type)
	require.Regexp(t, `^vlt_`, v.ID)
	require.Equal(t, map[string]string{"team": "a"}, v.Metadata)
	require.Equal(t, start, v.CreatedAt)
	require.False(t, v.Archived())

	clock.Advance(time.Second)
	v, err = client.Vaults.Update(ctx, v.ID, vaults.UpdateParams{DisplayName: "bot 2", Metadata: map[string]*string{"team": nil}})
	require.NoError(t, err)
	require.Equal(t, "bot 2", v.DisplayName)
	require.Empty(t, v.Metadata)
	require.Equal(t, start.Add(time.Second), v.UpdatedAt)

	got, err := client.Vaults.Get(ctx, v.ID)
	require.NoError(t, err)
	require.Equal(t, v.DisplayName, got.DisplayName)

	other := newVault(t, client, "other")
	page, err := client.Vaults.List(ctx, vaults.ListParams{Limit: 1})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, other.ID, page.Data[0].ID, "newest first")
	var ids []string
	for item, err := range client.Vaults.All(ctx, vaults.ListParams{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, item.ID)
	}
	require.Equal(t, []string{other.ID, v.ID}, ids)

	cred, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: mcpURL, Token: bearerToken}})
	require.NoError(t, err)
	clock.Advance(time.Second)
	archived, err := client.Vaults.Archive(ctx, v.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	require.Equal(t, v.UpdatedAt, archived.UpdatedAt, "archiving leaves updated_at")
	again, err := client.Vaults.Archive(ctx, v.ID)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt, "idempotent")
	cred, err = client.Vaults.Credentials.Get(ctx, v.ID, cred.ID)
	require.NoError(t, err)
	require.True(t, cred.Archived(), "archiving a vault archives its credentials")

	_, err = client.Vaults.Update(ctx, v.ID, vaults.UpdateParams{DisplayName: "x"})
	reftest.RequireConflict(t, err, "is archived")
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: mcpURL, Token: bearerToken}})
	reftest.RequireConflict(t, err, "is archived")

	page, err = client.Vaults.List(ctx, vaults.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "archived vaults are left out")
	page, err = client.Vaults.List(ctx, vaults.ListParams{IncludeArchived: true})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)

	require.NoError(t, client.Vaults.Delete(ctx, v.ID))
	_, err = client.Vaults.Get(ctx, v.ID)
	reftest.RequireNotFound(t, err, "Vault `"+v.ID+"` not found.")
	_, err = client.Vaults.Credentials.Get(ctx, v.ID, cred.ID)
	reftest.RequireNotFound(t, err, "not found")
}

func TestCredentialKinds(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()
	v := newVault(t, client, "kinds")

	oauth, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: oauthParams(), DisplayName: "oauth"})
	require.NoError(t, err)
	require.Equal(t, "vault_credential", oauth.Type)
	require.Regexp(t, `^vcrd_`, oauth.ID)
	require.Equal(t, v.ID, oauth.VaultID)
	a, ok := oauth.Auth.(*vaults.MCPOAuthAuth)
	require.True(t, ok, "%T", oauth.Auth)
	require.Equal(t, mcpURL, a.MCPServerURL)
	require.Equal(t, start.Add(time.Hour), a.ExpiresAt)
	require.Equal(t, "client-1", a.Refresh.ClientID)
	require.Equal(t, "client_secret_post", a.Refresh.TokenEndpointAuth.Type)
	require.Equal(t, "read", a.Refresh.Scope)

	bearer, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://other.example.com/mcp", Token: bearerToken}})
	require.NoError(t, err)
	require.Equal(t, "https://other.example.com/mcp", bearer.Auth.(*vaults.StaticBearerAuth).MCPServerURL)
	require.Empty(t, bearer.DisplayName)

	clock.Advance(time.Millisecond) // list order is by creation time
	env, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: envParams()})
	require.NoError(t, err)
	ea := env.Auth.(*vaults.EnvironmentVariableAuth)
	require.Equal(t, "API_KEY", ea.SecretName)
	require.Equal(t, []string{"api.example.com", "*.example.org"}, ea.Networking.(*vaults.LimitedNetworking).AllowedHosts)
	require.Equal(t, vaults.InjectionLocation{Body: true, Header: true}, ea.InjectionLocation)

	// One active credential per server and per variable name.
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: mcpURL, Token: bearerToken}})
	reftest.RequireConflict(t, err, "already has a credential for MCP server")
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: envParams()})
	reftest.RequireConflict(t, err, "already has a credential for `API_KEY`")

	// Updates: rotate secrets, change settings; the kind cannot change.
	clock.Advance(time.Second)
	updated, err := client.Vaults.Credentials.Update(ctx, v.ID, env.ID, vaults.CredentialUpdateParams{
		Auth: vaults.EnvironmentVariableUpdateParams{SecretValue: "rotated", Networking: &vaults.UnrestrictedNetworking{},
			InjectionLocation: &vaults.InjectionLocationUpdate{Body: new(false)}},
		DisplayName: "env"})
	require.NoError(t, err)
	ua := updated.Auth.(*vaults.EnvironmentVariableAuth)
	require.IsType(t, &vaults.UnrestrictedNetworking{}, ua.Networking)
	require.Equal(t, vaults.InjectionLocation{Body: false, Header: true}, ua.InjectionLocation)
	require.Equal(t, "env", updated.DisplayName)
	require.Equal(t, start.Add(time.Second+time.Millisecond), updated.UpdatedAt)
	_, err = client.Vaults.Credentials.Update(ctx, v.ID, env.ID, vaults.CredentialUpdateParams{
		Auth: vaults.EnvironmentVariableUpdateParams{InjectionLocation: &vaults.InjectionLocationUpdate{Header: new(false)}}})
	reftest.RequireInvalid(t, err, "auth.injection_location: must enable")
	_, err = client.Vaults.Credentials.Update(ctx, v.ID, env.ID, vaults.CredentialUpdateParams{
		Auth: vaults.StaticBearerUpdateParams{Token: "x"}})
	reftest.RequireInvalid(t, err, "auth.type: must be `environment_variable`, the credential's type")

	o2, err := client.Vaults.Credentials.Update(ctx, v.ID, oauth.ID, vaults.CredentialUpdateParams{
		Auth: vaults.MCPOAuthUpdateParams{AccessToken: "new-access", ExpiresAt: start.Add(2 * time.Hour),
			Refresh: &vaults.RefreshUpdateParams{Scope: param.Value(""), ClientSecret: "new-secret"}}})
	require.NoError(t, err)
	oa := o2.Auth.(*vaults.MCPOAuthAuth)
	require.Equal(t, start.Add(2*time.Hour), oa.ExpiresAt)
	require.Empty(t, oa.Refresh.Scope, "an empty scope clears it")
	require.Equal(t, "client_secret_post", oa.Refresh.TokenEndpointAuth.Type, "the stored type is kept")

	page, err := client.Vaults.Credentials.List(ctx, v.ID, vaults.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 3)
	require.Equal(t, env.ID, page.Data[0].ID, "newest first")

	arch, err := client.Vaults.Credentials.Archive(ctx, v.ID, bearer.ID)
	require.NoError(t, err)
	require.True(t, arch.Archived())
	_, err = client.Vaults.Credentials.Update(ctx, v.ID, bearer.ID, vaults.CredentialUpdateParams{DisplayName: "x"})
	reftest.RequireConflict(t, err, "Credential `"+bearer.ID+"` is archived.")
	var n int
	for _, err := range client.Vaults.Credentials.All(ctx, v.ID, vaults.ListParams{Limit: 1}) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 2, n, "archived credentials are left out")
	// The archived credential frees its server for a new one.
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://other.example.com/mcp", Token: bearerToken}})
	require.NoError(t, err)

	require.NoError(t, client.Vaults.Credentials.Delete(ctx, v.ID, bearer.ID))
	_, err = client.Vaults.Credentials.Get(ctx, v.ID, bearer.ID)
	reftest.RequireNotFound(t, err, "Credential `"+bearer.ID+"` not found.")
}

func TestValidate(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()
	v := newVault(t, client, "validate")
	withRefresh, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: oauthParams()})
	require.NoError(t, err)
	p := oauthParams()
	p.MCPServerURL, p.Refresh = "https://two.example.com/mcp", nil
	noRefresh, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: p})
	require.NoError(t, err)

	res, err := client.Vaults.Credentials.Validate(ctx, v.ID, withRefresh.ID)
	require.NoError(t, err)
	require.Equal(t, "vault_credential_validation", res.Type)
	require.Equal(t, "valid", res.Status)
	require.True(t, res.HasRefreshToken)
	require.Nil(t, res.MCPProbe)
	require.Nil(t, res.Refresh)
	require.Equal(t, start, res.ValidatedAt)

	clock.Advance(2 * time.Hour) // both tokens expired
	res, err = client.Vaults.Credentials.Validate(ctx, v.ID, withRefresh.ID)
	require.NoError(t, err)
	require.Equal(t, "unknown", res.Status)
	require.Equal(t, "succeeded", res.Refresh.Status)
	res, err = client.Vaults.Credentials.Validate(ctx, v.ID, noRefresh.ID)
	require.NoError(t, err)
	require.Equal(t, "invalid", res.Status)
	require.Equal(t, "no_refresh_token", res.Refresh.Status)
	require.Equal(t, "initialize", res.MCPProbe.Method)
	require.Equal(t, http.StatusUnauthorized, res.MCPProbe.HTTPResponse.StatusCode)

	env, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: envParams()})
	require.NoError(t, err)
	_, err = client.Vaults.Credentials.Validate(ctx, v.ID, env.ID)
	reftest.RequireInvalid(t, err, "auth.type: only `mcp_oauth` credentials can be validated")
}

// TestSecretsNeverReturned reads every credential response as raw bytes
// and finds none of the secrets sent.
func TestSecretsNeverReturned(t *testing.T) {
	env, client, _ := newClockEnv(t)
	ctx := context.Background()
	v := newVault(t, client, "secrets")
	var raw []byte
	for _, a := range []vaults.AuthParam{oauthParams(), envParams(), vaults.StaticBearerParams{MCPServerURL: "https://b.example.com", Token: bearerToken}} {
		c, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: a})
		require.NoError(t, err)
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/vaults/"+v.ID+"/credentials/"+c.ID, nil, &raw,
			option.WithBeta("managed-agents-2026-04-01")))
		for _, s := range secrets {
			require.NotContains(t, string(raw), s)
		}
	}
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/vaults/"+v.ID+"/credentials", nil, &raw,
		option.WithBeta("managed-agents-2026-04-01")))
	for _, s := range secrets {
		require.NotContains(t, string(raw), s)
	}
	// The server's request log keeps the bodies, with the secrets redacted.
	for _, rec := range env.Server.Requests() {
		for _, s := range secrets {
			require.NotContains(t, string(rec.Body), s, "%s %s", rec.Method, rec.Path)
		}
	}
}

// TestParamsNeverPrintSecrets prints every secret-carrying params value
// with every verb, and logs it, and finds no secret.
func TestParamsNeverPrintSecrets(t *testing.T) {
	values := []any{
		vaults.CredentialCreateParams{Auth: oauthParams()}, oauthParams(), *oauthParams().Refresh,
		vaults.CredentialCreateParams{Auth: envParams()}, envParams(),
		vaults.StaticBearerParams{Token: bearerToken}, vaults.ClientSecretBasic{ClientSecret: clientSec},
		vaults.ClientSecretPost{ClientSecret: clientSec},
		vaults.CredentialUpdateParams{Auth: vaults.MCPOAuthUpdateParams{AccessToken: accessToken,
			Refresh: &vaults.RefreshUpdateParams{RefreshToken: refreshTok, ClientSecret: clientSec}}},
		vaults.StaticBearerUpdateParams{Token: bearerToken}, vaults.EnvironmentVariableUpdateParams{SecretValue: envSecret},
	}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			out := fmt.Sprintf(verb, v)
			ptr := fmt.Sprintf(verb, &v)
			for _, s := range secrets {
				require.NotContains(t, out, s, "%s of %T", verb, v)
				require.NotContains(t, ptr, s, "%s of *%T", verb, v)
			}
		}
	}
}
