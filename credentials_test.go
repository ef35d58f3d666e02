package agentplatform_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// rotatingCredentials hands out a token until it is invalidated, then the
// next one: a stand-in for a federation or attestation source.
type rotatingCredentials struct {
	mu          sync.Mutex
	tokens      []string
	invalidated []string
}

func (c *rotatingCredentials) Authorize(_ context.Context, r *http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	r.Header.Set("Authorization", "Bearer "+c.tokens[0])
	return nil
}

func (c *rotatingCredentials) Invalidate(r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	used := r.Header.Get("Authorization")[len("Bearer "):]
	c.invalidated = append(c.invalidated, used)
	if len(c.tokens) > 1 && c.tokens[0] == used {
		c.tokens = c.tokens[1:]
	}
}

func TestA401InvalidatesTheTokenAndRetriesOnce(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	creds := &rotatingCredentials{tokens: []string{"sk-vendor-api03-stale", env.Seed.APIKey}}
	client := env.Client(t, option.WithCredentials(creds))
	_, err := client.Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, []string{"sk-vendor-api03-stale"}, creds.invalidated)
	require.Equal(t, 2, env.Count("GET", modelsPath))

	// Once only: a source whose fresh token is refused too gives the 401.
	env.Server.ResetRequests()
	creds = &rotatingCredentials{tokens: []string{"sk-vendor-api03-bad1", "sk-vendor-api03-bad2"}}
	_, err = client.Models.List(context.Background(), models.ListParams{}, option.WithCredentials(creds))
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 2, env.Count("GET", modelsPath))
	require.Len(t, creds.invalidated, 1)

	// Static keys are not retried.
	env.Server.ResetRequests()
	_, err = client.Models.List(context.Background(), models.ListParams{}, option.WithAPIKey("sk-vendor-api03-wrong"))
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	require.Equal(t, 1, env.Count("GET", modelsPath))
}
