package platformtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/platformtest"
)

// EnvironmentKey mints a worker's key: it reads its environment's work
// queue, and is refused for a cloud environment.
func TestEnvironmentKey(t *testing.T) {
	srv, _ := platformtest.New(t)
	call := func(method, path, body, key string) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("vendor-workspace-id", srv.WorkspaceID())
		req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, b
	}
	status, body := call("POST", "/v1/environments", `{"name":"sh","config":{"type":"self_hosted"}}`, srv.APIKey())
	require.Equal(t, http.StatusOK, status, string(body))
	var env struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &env))

	key, err := srv.EnvironmentKey(env.ID)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(key, "sk-vendor-env01-"))
	status, body = call("GET", "/v1/environments/"+env.ID+"/work/stats", "", key)
	require.Equal(t, http.StatusOK, status, string(body))
	require.Contains(t, string(body), `"type":"work_queue_stats"`)
	status, _ = call("GET", "/v1/agents", "", key)
	require.Equal(t, http.StatusForbidden, status)

	status, body = call("POST", "/v1/environments", `{"name":"cloud"}`, srv.APIKey())
	require.Equal(t, http.StatusOK, status, string(body))
	require.NoError(t, json.Unmarshal(body, &env))
	_, err = srv.EnvironmentKey(env.ID)
	require.Error(t, err)
}
