package agentplatform_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// A service can be made on its own, from the same options as a client.
func TestServiceMadeOnItsOwn(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	svc := models.NewService(
		option.WithBaseURL(env.URL),
		option.WithAPIKey(env.Seed.APIKey),
		option.WithWorkspaceID(env.Seed.DefaultWorkspaceID),
		option.WithHTTPClient(&http.Client{Transport: transport}),
		option.Option(nil), // ignored, like every nil option
	)
	m, err := svc.Get(context.Background(), models.VendorOpus55)
	require.NoError(t, err)
	require.Equal(t, models.VendorOpus55, m.ID)
	require.Equal(t, 1, env.Count("GET", "/v1/models/vendor-opus-5-5"))
}

// An option that fails makes every call of the service fail with its
// error, before anything is sent.
func TestServiceWithABadOptionFailsEveryCall(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	svc := models.NewService(option.WithBaseURL(env.URL), option.WithMaxRetries(-1))
	for range 2 {
		_, err := svc.Get(context.Background(), models.VendorOpus55)
		var verr *apierror.ValidationError
		require.ErrorAs(t, err, &verr)
		require.Equal(t, "max_retries", verr.Field)
	}
	require.Zero(t, env.Count("GET", "/v1/models/vendor-opus-5-5"))
}

// A client's services share its pipeline: a nil option given to the
// client changes nothing, and a call option still applies per call.
func TestClientServicesShareTheClient(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t, option.Option(nil))
	_, err := client.Models.Get(context.Background(), models.VendorOpus55, option.Option(nil))
	require.NoError(t, err)
}
