package agentplatform_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"

	"github.com/agentplatform/agentplatform-go/workspaces"
)

// TestMain fails the package if any test leaves a goroutine behind: every
// client is closed and every server stopped by the tests' cleanups.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// startServer serves h over real HTTP until the test ends and returns its URL.
func startServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

func workspacesCreate(name string) workspaces.CreateParams {
	return workspaces.CreateParams{Name: name}
}
