package vaults_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/vaults"
)

var start = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)

const (
	mcpURL      = "https://mcp.example.com/mcp"
	bearerToken = param.Secret("CANARYbearerToken0101")
	accessToken = param.Secret("CANARYaccessToken0102")
	refreshTok  = param.Secret("CANARYrefreshToken0103")
	clientSec   = param.Secret("CANARYclientSecret0104")
	envSecret   = param.Secret("CANARYsecretValue0105")
)

var secrets = []string{string(bearerToken), string(accessToken), string(refreshTok), string(clientSec), string(envSecret)}

func newClockEnv(t *testing.T) (*reftest.Env, *agentplatform.Client, *refserver.ManualClock) {
	t.Helper()
	clock := refserver.NewManualClock(start)
	env := reftest.New(t, refserver.WithClock(clock))
	return env, env.Client(t), clock
}

func newVault(t *testing.T, client *agentplatform.Client, name string) *vaults.Vault {
	t.Helper()
	v, err := client.Vaults.Create(context.Background(), vaults.CreateParams{DisplayName: name})
	require.NoError(t, err)
	return v
}

func oauthParams() vaults.MCPOAuthParams {
	return vaults.MCPOAuthParams{MCPServerURL: mcpURL, AccessToken: accessToken, ExpiresAt: start.Add(time.Hour),
		Refresh: &vaults.RefreshParams{ClientID: "client-1", RefreshToken: refreshTok,
			TokenEndpoint: "https://auth.example.com/token", TokenEndpointAuth: vaults.ClientSecretPost{ClientSecret: clientSec},
			Scope: "read"}}
}

func envParams() vaults.EnvironmentVariableParams {
	return vaults.EnvironmentVariableParams{SecretName: "API_KEY", SecretValue: envSecret,
		Networking: &vaults.LimitedNetworking{AllowedHosts: []string{"api.example.com", "*.example.org"}}}
}
