package platformtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// A federation set up on the server lets a client with no API key call
// the API as the federation's service account; twice on one server works,
// and a token for another subject is refused.
func TestAddFederation(t *testing.T) {
	srv, _ := platformtest.New(t)
	ctx := context.Background()
	for _, subject := range []string{"system:serviceaccount:prod:a", "system:serviceaccount:prod:b"} {
		fed, err := srv.AddFederation(subject)
		require.NoError(t, err)
		creds, err := auth.Federation(fed.Config())
		require.NoError(t, err)
		t.Cleanup(func() { _ = creds.Close() })
		client, err := srv.Client(option.WithCredentials(creds), option.WithWorkspaceID(""))
		require.NoError(t, err)
		t.Cleanup(func() { _ = client.Close() })
		_, err = client.Models.List(ctx, models.ListParams{})
		require.NoError(t, err, subject)
	}

	fed, err := srv.AddFederation("system:serviceaccount:prod:c")
	require.NoError(t, err)
	cfg := fed.Config()
	fed.Subject = "system:serviceaccount:other:x" // the rule is for prod:c
	creds, err := auth.Federation(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	client, err := srv.Client(option.WithCredentials(creds), option.WithWorkspaceID(""))
	require.NoError(t, err)
	t.Cleanup(func() { _ = client.Close() })
	_, err = client.Models.List(ctx, models.ListParams{})
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe, "a token no rule matches is refused")

	_, err = srv.AddFederation("")
	require.Error(t, err)
	tok, err := fed.IdentityToken(time.Minute)
	require.NoError(t, err)
	require.NotEmpty(t, tok)
}
