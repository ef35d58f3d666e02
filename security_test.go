package agentplatform_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tunnels"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// TestCanariesNeverLeak runs a workload that carries a working API key, a
// rejected API key, a repository token, vault secrets, a tunnel's
// connector tokens and prompt text, each a canary, and
// then looks for them in everything the SDK emits besides the wire: the
// debug log, the spans (content mode off) and every error string. Retries,
// a 401 and a cut stream make the SDK log and record its unhappy paths too.
// In content mode prompts may be logged and recorded, but secrets still not.
func TestCanariesNeverLeak(t *testing.T) {
	noEnv(t)
	t.Run("content off", func(t *testing.T) { canaryWorkload(t, false) })
	t.Run("content on", func(t *testing.T) { canaryWorkload(t, true) })
}

func canaryWorkload(t *testing.T, contentMode bool) {
	env := reftest.New(t)
	const (
		badKey    = "sk-vendor-api03-CANARYrejectedKey0001"
		repoToken = param.Secret("ghp_CANARYrepositoryToken0002")
		content   = "CANARYpromptText0003"
		vaultTok  = param.Secret("CANARYvaultToken0013")
		envSecret = param.Secret("CANARYvaultSecretValue0014")
	)
	canaries := []string{env.Seed.APIKey, badKey, string(repoToken), string(vaultTok), string(envSecret)}
	if !contentMode {
		canaries = append(canaries, content)
	}

	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	tp, rec := recorder(t)
	client := env.Client(t, option.WithLogger(logger), option.WithTracerProvider(tp), option.WithContentCapture(contentMode))
	ctx := context.Background()
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	e, err := client.Environments.Create(ctx, environments.CreateParams{Name: "e"})
	require.NoError(t, err)
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID(models.VendorHaiku55),
		System: "Always answer " + content})
	require.NoError(t, err)
	retryAfter := http.Header{"Retry-After": []string{"0"}}
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/sessions", Status: 429, Header: retryAfter})
	s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: e.ID,
		Resources: []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: "https://github.com/example-org/example-repo", AuthorizationToken: repoToken}}})
	require.NoError(t, err)
	_, err = client.Sessions.Resources.Update(ctx, s.ID, s.Resources[0].(sessions.RepositoryResource).ID,
		sessions.ResourceUpdateParams{AuthorizationToken: repoToken + "-rotated"})
	require.NoError(t, err)

	eventsPath := "/v1/sessions/" + s.ID + "/events"
	env.Server.InjectFault(refserver.Fault{Path: eventsPath + "/stream", StreamCutAfter: 2})
	st, err := client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: eventsPath, Status: 503, Header: retryAfter})
	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Say " + content)}})
	require.NoError(t, err)
	for ev, err := range st.Events() {
		keep(err)
		if _, idle := ev.(*sessions.SessionStatusIdleEvent); idle || err != nil {
			break
		}
	}
	require.NoError(t, st.Close())

	prompt := messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 64,
		System: messages.Text("Repeat " + content), Messages: []messages.MessageParam{messages.UserText(content)}}
	_, err = client.Messages.Create(ctx, prompt)
	require.NoError(t, err)
	ms, err := client.Messages.Stream(ctx, prompt)
	require.NoError(t, err)
	_, err = ms.Message()
	require.NoError(t, err)
	require.NoError(t, ms.Close())

	// The unhappy paths: a rejected key, a local validation failure and an
	// API error, each for a request that carries the content.
	_, err = client.Messages.Create(ctx, prompt, option.WithAPIKey(badKey))
	require.Error(t, err)
	keep(err)
	tooFew := prompt
	tooFew.MaxTokens = -1
	_, err = client.Messages.Create(ctx, tooFew)
	require.Error(t, err)
	keep(err)
	_, err = client.Messages.Create(ctx, messages.MessageParams{Model: "no-such-model-" + "x", MaxTokens: 1,
		Messages: []messages.MessageParam{messages.UserText(content)}})
	require.Error(t, err)
	keep(err)
	_, err = client.Sessions.Resources.Update(ctx, s.ID, "sesrsc_missing", sessions.ResourceUpdateParams{AuthorizationToken: repoToken})
	require.Error(t, err)
	keep(err)

	// Vault secrets: created, rotated, and sent in a refused request.
	v, err := client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: "v"})
	require.NoError(t, err)
	cred, err := client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://mcp.example.com/mcp", Token: vaultTok}})
	require.NoError(t, err)
	_, err = client.Vaults.Credentials.Update(ctx, v.ID, cred.ID, vaults.CredentialUpdateParams{
		Auth: vaults.StaticBearerUpdateParams{Token: vaultTok + "-rotated"}})
	require.NoError(t, err)
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: vaults.EnvironmentVariableParams{
		SecretName: "K", SecretValue: envSecret, Networking: &vaults.UnrestrictedNetworking{}}})
	require.NoError(t, err)
	_, err = client.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{Auth: vaults.EnvironmentVariableParams{
		SecretName: "1bad", SecretValue: envSecret, Networking: &vaults.UnrestrictedNetworking{}}})
	require.Error(t, err)
	keep(err)

	// A tunnel's connector token, revealed and rotated: server-made
	// secrets that arrive in responses.
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	tok, err := client.Tunnels.RevealToken(ctx, tn.ID)
	require.NoError(t, err)
	rotated, err := client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{Reason: "rotation drill"})
	require.NoError(t, err)
	canaries = append(canaries, string(tok.TunnelToken), string(rotated.TunnelToken))
	keep(fmt.Errorf("printed: %v %+v", tok, rotated)) // %v of the values is checked like an error string

	require.NotEmpty(t, logs.String(), "debug logging was on")
	if contentMode {
		require.Contains(t, logs.String(), content, "content mode logs bodies, so the secrets in them were really redacted")
	}
	require.NotEmpty(t, rec.Ended())
	for _, canary := range canaries {
		require.NotContains(t, logs.String(), canary, "debug log")
		for _, err := range errs {
			require.NotContains(t, fmt.Sprintf("%v %+v", err, err), canary, "error string")
		}
		for _, sp := range rec.Ended() {
			require.NotContains(t, spanText(sp), canary, "span %s", sp.Name())
		}
	}
}

// spanText is everything a span exports as text: name, attributes, event
// names and attributes, status and links.
func spanText(sp sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	b.WriteString(sp.Name())
	for _, kv := range sp.Attributes() {
		fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value.String())
	}
	for _, ev := range sp.Events() {
		b.WriteString(" " + ev.Name)
		for _, kv := range ev.Attributes {
			fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value.String())
		}
	}
	b.WriteString(" " + sp.Status().Description)
	for _, l := range sp.Links() {
		for _, kv := range l.Attributes {
			fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value.String())
		}
	}
	return b.String()
}

// TestPrintingAClientShowsNoSecret prints a client and its services with
// every verb, including the ones that make fmt expand a struct it cannot
// format (%s, %d, %x), and finds neither the key nor a caller's header.
func TestPrintingAClientShowsNoSecret(t *testing.T) {
	noEnv(t)
	const key, header = "sk-vendor-api03-CANARYprintedKey0004", "CANARYheaderValue0005"
	client, err := agentplatform.NewClient(option.WithAPIKey(key), option.WithHeader("X-Upstream-Token", header))
	require.NoError(t, err)
	defer client.Close()
	values := []any{client, *client, client.Sessions, client.Messages, client.Agents, client.Workspaces}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%T"} {
		for _, v := range values {
			out := fmt.Sprintf(verb, v)
			require.NotContains(t, out, key, "%s of %T", verb, v)
			require.NotContains(t, out, header, "%s of %T", verb, v)
		}
	}
}
