package vaults_test

import (
	"context"
	"strings"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/vaults"
)

type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env, client, _ := newClockEnv(t)
	v := newVault(t, client, "target")
	oauth, err := client.Vaults.Credentials.Create(context.Background(), v.ID, vaults.CredentialCreateParams{Auth: func() vaults.MCPOAuthParams {
		p := oauthParams()
		p.Refresh = nil
		return p
	}()})
	if err != nil {
		t.Fatal(err)
	}
	create := func(p vaults.CreateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Vaults.Create(ctx, p)
			return err
		}
	}
	update := func(p vaults.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Vaults.Update(ctx, v.ID, p)
			return err
		}
	}
	list := func(p vaults.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Vaults.List(ctx, p)
			return err
		}
	}
	cred := func(a vaults.AuthParam) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: a})
			return err
		}
	}
	credUpdate := func(id string, a vaults.AuthUpdateParam) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Vaults.Credentials.Update(ctx, v.ID, id, vaults.CredentialUpdateParams{Auth: a})
			return err
		}
	}
	env2 := func(change func(*vaults.EnvironmentVariableParams)) reftest.Call {
		p := envParams()
		change(&p)
		return cred(p)
	}
	oauth2 := func(change func(*vaults.MCPOAuthParams)) reftest.Call {
		p := oauthParams()
		p.MCPServerURL = "https://fresh.example.com/mcp"
		change(&p)
		return cred(p)
	}
	rep := strings.Repeat
	reftest.RunBadInput(t, env, client, []badInput{
		{"vault name missing", create(vaults.CreateParams{}), "display_name", "between 1 and 255", true},
		{"vault name long", create(vaults.CreateParams{DisplayName: rep("a", 256)}), "display_name", "between 1 and 255", true},
		{"vault metadata pairs", create(vaults.CreateParams{DisplayName: "x", Metadata: manyPairs(17)}), "metadata", "16", true},
		{"vault update name long", update(vaults.UpdateParams{DisplayName: rep("a", 256)}), "display_name", "between 1 and 255", true},
		{"list limit", list(vaults.ListParams{Limit: 101}), "limit", "100", true},
		{"auth missing", cred(nil), "auth", "is required", true},
		{"bearer url missing", cred(vaults.StaticBearerParams{Token: bearerToken}), "auth.mcp_server_url", "is required", true},
		{"bearer token missing", cred(vaults.StaticBearerParams{MCPServerURL: mcpURL}), "auth.token", "is required", true},
		{"bearer url scheme", cred(vaults.StaticBearerParams{MCPServerURL: "ftp://x", Token: bearerToken}), "auth.mcp_server_url", "absolute http or https URL", false},
		{"oauth token missing", oauth2(func(p *vaults.MCPOAuthParams) { p.AccessToken = "" }), "auth.access_token", "is required", true},
		{"oauth expired", oauth2(func(p *vaults.MCPOAuthParams) { p.ExpiresAt = start.Add(-time.Second) }), "auth.expires_at", "must be in the future", false},
		{"oauth refresh auth missing", oauth2(func(p *vaults.MCPOAuthParams) { p.Refresh.TokenEndpointAuth = nil }), "auth.refresh.token_endpoint_auth", "is required", true},
		{"oauth refresh secret missing", oauth2(func(p *vaults.MCPOAuthParams) {
			p.Refresh.TokenEndpointAuth = vaults.ClientSecretBasic{}
		}), "auth.refresh.token_endpoint_auth.client_secret", "is required", false},
		{"env name missing", env2(func(p *vaults.EnvironmentVariableParams) { p.SecretName = "" }), "auth.secret_name", "is required", true},
		{"env name form", env2(func(p *vaults.EnvironmentVariableParams) { p.SecretName = "1X" }), "auth.secret_name", "must start with a letter", false},
		{"env networking missing", env2(func(p *vaults.EnvironmentVariableParams) { p.Networking = nil }), "auth.networking", "is required", true},
		{"env hosts empty", env2(func(p *vaults.EnvironmentVariableParams) { p.Networking = &vaults.LimitedNetworking{} }), "auth.networking.allowed_hosts", "between 1 and 16", true},
		{"env host with port", env2(func(p *vaults.EnvironmentVariableParams) {
			p.Networking = &vaults.LimitedNetworking{AllowedHosts: []string{"api.example.com:443"}}
		}), "auth.networking.allowed_hosts[0]", "must be a host name", false},
		{"env host ipv6", env2(func(p *vaults.EnvironmentVariableParams) {
			p.Networking = &vaults.LimitedNetworking{AllowedHosts: []string{"::1"}}
		}), "auth.networking.allowed_hosts[0]", "must be a host name", false},
		{"env no location", env2(func(p *vaults.EnvironmentVariableParams) { p.InjectionLocation = &vaults.InjectionLocation{} }), "auth.injection_location", "must enable", false},
		{"update kind", credUpdate(oauth.ID, vaults.StaticBearerUpdateParams{Token: "x"}), "auth.type", "the credential's type", false},
		{"update refresh absent", credUpdate(oauth.ID, vaults.MCPOAuthUpdateParams{Refresh: &vaults.RefreshUpdateParams{RefreshToken: "r"}}), "auth.refresh", "no refresh configuration", false},
	})
}

func manyPairs(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[strings.Repeat("k", i+1)] = "v"
	}
	return m
}
