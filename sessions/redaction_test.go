package sessions_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

const token = "ghp_TOPSECRETtoken1234567890"

func TestTokenNeverPrinted(t *testing.T) {
	repo := sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token, Checkout: sessions.BranchCheckout{Name: "main"}}
	params := sessions.CreateParams{Agent: nil, Resources: []sessions.ResourceParam{repo}}
	update := sessions.ResourceUpdateParams{AuthorizationToken: token}

	for _, v := range []any{repo, &repo, params, &params, update, repo.AuthorizationToken, []sessions.ResourceParam{repo}} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%10s", "%d"} {
			out := fmt.Sprintf(verb, v)
			require.NotContains(t, out, token, "%s of %T", verb, v)
		}
	}
	require.Contains(t, fmt.Sprintf("%+v", repo), "[redacted]")
	require.Equal(t, "[redacted]", repo.AuthorizationToken.String())
	require.Empty(t, param.Secret("").String(), "an unset token shows as unset")

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		l := slog.New(h)
		l.Info("resource", "repo", repo, "token", repo.AuthorizationToken, "update", update, "params", params)
	}
	require.NotContains(t, buf.String(), token)
	require.Contains(t, buf.String(), "[redacted]")

	// The request body still carries it: that is where it is needed.
	body, err := repo.MarshalJSON()
	require.NoError(t, err)
	require.Contains(t, string(body), `"authorization_token":"`+token+`"`)
}

func TestTokenRedactedInLogs(t *testing.T) {
	f := newFixture(t)
	var sdkLog bytes.Buffer
	client := f.env.Client(t, option.WithLogger(slog.New(slog.NewJSONHandler(&sdkLog, &slog.HandlerOptions{Level: slog.LevelDebug}))))

	p := f.params()
	p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: token}}
	s, err := client.Sessions.Create(ctx, p)
	require.NoError(t, err)
	repo := s.Resources[0].(sessions.RepositoryResource)
	_, err = client.Sessions.Resources.Update(ctx, s.ID, repo.ID, sessions.ResourceUpdateParams{AuthorizationToken: token + "2"})
	require.NoError(t, err)

	require.NotEmpty(t, sdkLog.String())
	require.NotContains(t, sdkLog.String(), token, "the SDK's debug log redacts authorization_token")

	var seen int
	for _, r := range f.env.Server.Requests() {
		require.NotContains(t, string(r.Body), token, "%s %s", r.Method, r.Path)
		if strings.Contains(string(r.Body), "authorization_token") {
			require.Contains(t, string(r.Body), `"authorization_token":"[redacted]"`)
			seen++
		}
	}
	require.Equal(t, 2, seen, "the server's request log holds both requests, redacted")
}
