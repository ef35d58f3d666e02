package agentplatform_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tunnels"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// TestSpanOfEveryFamily calls each endpoint family once and checks the
// span name of docs/tracing.md, its kind and its status; then an API
// error of each family that has a retrieve.
func TestSpanOfEveryFamily(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	c := env.Client(t, option.WithTracerProvider(tp), option.WithMaxRetries(0))
	chats := c.Chat
	ctx := context.Background()

	var (
		agent   *agents.Agent
		envID   string
		sess    *sessions.Session
		file    *files.File
		fileRes *sessions.FileResource
		store   *memorystores.MemoryStore
		dep     *deployments.Deployment
		run     *deployments.Run
		tunnel  *tunnels.Tunnel
		ws      *workspaces.Workspace
	)
	prompt := messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 256, Messages: []messages.MessageParam{messages.UserText("Hello there")}}
	steps := []struct {
		span string
		call func() error
	}{
		{"vendor.models.list", func() error { _, err := c.Models.List(ctx, models.ListParams{}); return err }},
		{"vendor.models.retrieve", func() error { _, err := c.Models.Get(ctx, models.VendorHaiku55); return err }},
		{"vendor.organizations.workspaces.create", func() (err error) {
			ws, err = c.Workspaces.Create(ctx, workspaces.CreateParams{Name: "traced"})
			return err
		}},
		{"vendor.organizations.workspaces.retrieve", func() error { _, err := c.Workspaces.Get(ctx, ws.ID); return err }},
		{"vendor.organizations.workspaces.list", func() error { _, err := c.Workspaces.List(ctx, workspaces.ListParams{}); return err }},
		{"vendor.tunnels.create", func() (err error) { tunnel, err = c.Tunnels.Create(ctx, tunnels.CreateParams{}); return err }},
		{"vendor.tunnels.list", func() error { _, err := c.Tunnels.List(ctx, tunnels.ListParams{}); return err }},
		{"vendor.tunnels.archive", func() error { _, err := c.Tunnels.Archive(ctx, tunnel.ID); return err }},
		{"vendor.agents.create", func() (err error) {
			agent, err = c.Agents.Create(ctx, agents.CreateParams{Name: "Tracer", Model: agents.ModelID(models.VendorHaiku55)})
			return err
		}},
		{"vendor.agents.retrieve", func() error { _, err := c.Agents.Get(ctx, agent.ID, agents.GetParams{}); return err }},
		{"vendor.agents.versions.list", func() error {
			_, err := c.Agents.ListVersions(ctx, agent.ID, agents.ListVersionsParams{})
			return err
		}},
		{"vendor.environments.create", func() error {
			e, err := c.Environments.Create(ctx, environments.CreateParams{Name: "python"})
			if err == nil {
				envID = e.ID
			}
			return err
		}},
		{"vendor.environments.list", func() error { _, err := c.Environments.List(ctx, environments.ListParams{}); return err }},
		{"vendor.sessions.create", func() (err error) {
			sess, err = c.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agent.ID), EnvironmentID: envID})
			return err
		}},
		{"vendor.sessions.list", func() error { _, err := c.Sessions.List(ctx, sessions.ListParams{}); return err }},
		{"vendor.files.upload", func() (err error) {
			file, err = c.Files.Upload(ctx, files.UploadParams{Reader: strings.NewReader("id,total\n1,42\n"), Filename: "orders.csv"})
			return err
		}},
		{"vendor.sessions.resources.add", func() (err error) {
			fileRes, err = c.Sessions.Resources.Add(ctx, sess.ID, sessions.FileResourceParam{FileID: file.ID})
			return err
		}},
		{"vendor.sessions.resources.retrieve", func() error { _, err := c.Sessions.Resources.Get(ctx, sess.ID, fileRes.ID); return err }},
		{"vendor.sessions.events.send", func() error {
			_, err := c.Sessions.Events.Send(ctx, sess.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Hi")}})
			return err
		}},
		{"vendor.sessions.events.list", func() error {
			_, err := c.Sessions.Events.List(ctx, sess.ID, sessions.EventListParams{})
			return err
		}},
		{"vendor.sessions.events.stream", func() error {
			st, err := c.Sessions.Events.Stream(ctx, sess.ID, sessions.StreamParams{NoReconnect: true})
			if err != nil {
				return err
			}
			archived := make(chan error, 1)
			go func() { _, err := c.Sessions.Archive(ctx, sess.ID); archived <- err }() // the stream ends with the session
			for _, err := range st.Events() {
				if err != nil {
					return err
				}
			}
			if err := <-archived; err != nil {
				return err
			}
			return st.Close()
		}},
		{"vendor.memory_stores.create", func() (err error) {
			store, err = c.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "notes"})
			return err
		}},
		{"vendor.memory_stores.memories.create", func() error {
			_, err := c.MemoryStores.Memories.Create(ctx, store.ID, memorystores.MemoryCreateParams{Path: "/a/b.md", Content: "x"})
			return err
		}},
		{"vendor.memory_stores.memories.list", func() error {
			_, err := c.MemoryStores.Memories.List(ctx, store.ID, memorystores.MemoryListParams{})
			return err
		}},
		{"vendor.memory_stores.memory_versions.list", func() error {
			_, err := c.MemoryStores.Versions.List(ctx, store.ID, memorystores.VersionListParams{})
			return err
		}},
		{"vendor.deployments.create", func() (err error) {
			dep, err = c.Deployments.Create(ctx, deployments.CreateParams{Name: "nightly", Agent: agents.AgentID(agent.ID), EnvironmentID: envID,
				InitialEvents: []sessions.EventParam{sessions.UserMessage("Go.")}})
			return err
		}},
		{"vendor.deployments.run", func() (err error) { run, err = c.Deployments.RunNow(ctx, dep.ID); return err }},
		{"vendor.deployments.pause", func() error { _, err := c.Deployments.Pause(ctx, dep.ID); return err }},
		{"vendor.deployment_runs.list", func() error { _, err := c.Deployments.Runs.List(ctx, deployments.RunListParams{}); return err }},
		{"vendor.deployment_runs.retrieve", func() error { _, err := c.Deployments.Runs.Get(ctx, run.ID); return err }},
		{"vendor.messages.create", func() error { _, err := c.Messages.Create(ctx, prompt); return err }},
		{"vendor.messages.create", func() error {
			st, err := c.Messages.Stream(ctx, prompt)
			if err != nil {
				return err
			}
			defer st.Close()
			_, err = st.Message()
			return err
		}},
		{"vendor.messages.count_tokens", func() error { _, err := c.Messages.CountTokens(ctx, prompt.CountTokensParams()); return err }},
		{"vendor.chat.completions.create", func() error {
			_, err := chats.Create(ctx, chat.CompletionParams{Model: models.VendorSonnet55,
				Messages: []chat.Message{chat.UserMessage("Hello there")}})
			return err
		}},
	}
	for _, step := range steps {
		rec.Reset()
		require.NoError(t, step.call(), step.span)
		var found bool
		for _, s := range rec.Ended() {
			if s.Name() != step.span {
				continue
			}
			found = true
			require.Equal(t, trace.SpanKindClient, s.SpanKind(), step.span)
			require.Equal(t, codes.Ok, s.Status().Code, step.span)
			require.Equal(t, "vendor", spantest.Attrs(s)[attr.GenAIProviderName].AsString(), step.span)
		}
		require.True(t, found, "no span %s among %d", step.span, len(rec.Ended()))
	}

	// API errors: status and error.type, per family.
	for _, e := range []struct {
		span string
		call func() error
	}{
		{"vendor.models.retrieve", func() error { _, err := c.Models.Get(ctx, "vendor-none-1"); return err }},
		{"vendor.organizations.workspaces.retrieve", func() error { _, err := c.Workspaces.Get(ctx, "wrkspc_011CZkZAtmR3yMPDzynEDxu7"); return err }},
		{"vendor.tunnels.retrieve", func() error { _, err := c.Tunnels.Get(ctx, "tnl_011CZkZAtmR3yMPDzynEDxu7"); return err }},
		{"vendor.agents.retrieve", func() error {
			_, err := c.Agents.Get(ctx, "agent_011CZkZAtmR3yMPDzynEDxu7", agents.GetParams{})
			return err
		}},
		{"vendor.environments.retrieve", func() error { _, err := c.Environments.Get(ctx, "env_011CZkZAtmR3yMPDzynEDxu7"); return err }},
		{"vendor.sessions.retrieve", func() error { _, err := c.Sessions.Get(ctx, "sesn_011CZkZAtmR3yMPDzynEDxu7"); return err }},
		{"vendor.deployments.retrieve", func() error { _, err := c.Deployments.Get(ctx, "depl_011CZkZAtmR3yMPDzynEDxu7"); return err }},
		{"vendor.memory_stores.retrieve", func() error { _, err := c.MemoryStores.Get(ctx, "memstore_011CZkZAtmR3yMPDzynEDxu7"); return err }},
	} {
		rec.Reset()
		err := e.call()
		var apiErr *apierror.Error
		require.ErrorAs(t, err, &apiErr, e.span)
		s := onlySpan(t, rec)
		require.Equal(t, e.span, s.Name())
		require.Equal(t, codes.Error, s.Status().Code, e.span)
		a := spantest.Attrs(s)
		require.EqualValues(t, apiErr.StatusCode, a[attr.HTTPResponseStatus].AsInt64(), e.span)
		require.Equal(t, string(apiErr.Type), a[attr.ErrorType].AsString(), e.span)
		require.Equal(t, "not_found_error", a[attr.ErrorType].AsString(), e.span)
	}
}
