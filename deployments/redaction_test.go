package deployments_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

const token = "ghp_TOPSECRETtoken1234567890"

func TestTokenNeverPrinted(t *testing.T) {
	repo := []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token}}
	create := deployments.CreateParams{Name: "n", Resources: repo}
	update := deployments.UpdateParams{Name: "n", Resources: param.Value(repo), Description: param.Null[string]()}

	for _, v := range []any{create, &create, update, &update} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			require.NotContains(t, fmt.Sprintf(verb, v), token, "%s of %T", verb, v)
		}
	}
	require.Contains(t, fmt.Sprintf("%+v", update), "AuthorizationToken:[redacted]")
	require.Contains(t, fmt.Sprintf("%+v", update), "Description:null", "a Nullable prints its state")
	require.True(t, strings.HasPrefix(fmt.Sprintf("%#v", update), "deployments.UpdateParams{"))

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("deploying", "create", create, "update", update)
	}
	require.NotContains(t, buf.String(), token)
	require.Contains(t, buf.String(), "[redacted]")
}

func TestTokenRedactedInRequestLog(t *testing.T) {
	f := newFixture(t)
	p := f.params()
	p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token}}
	d := f.newDeployment(t, p)
	_, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{Resources: param.Value([]sessions.ResourceParam{
		sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token + "2"},
	})})
	require.NoError(t, err)

	seen := 0
	for _, r := range f.env.Server.Requests() {
		require.NotContains(t, string(r.Body), token)
		if strings.Contains(string(r.Body), `"authorization_token":"[redacted]"`) {
			seen++
		}
	}
	require.Equal(t, 2, seen)
}
