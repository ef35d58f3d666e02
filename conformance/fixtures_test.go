package conformance_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The fixtures create what a test needs and register its removal. Names
// carry the "conformance-" prefix; everything is deleted, or archived where
// the API has no delete (agents, deployments, tunnels, workspaces).

func newEnvironment(t *testing.T, tg *Target, params environments.CreateParams) *environments.Environment {
	t.Helper()
	if params.Name == "" {
		params.Name = name(t)
	}
	if params.Metadata == nil {
		params.Metadata = metadata()
	}
	env, err := tg.Client.Environments.Create(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("create environment: %v", err)
	}
	cleanup(t, "delete environment "+env.ID, func(ctx context.Context) error {
		return tg.Client.Environments.Delete(ctx, env.ID)
	})
	return env
}

func newAgent(t *testing.T, tg *Target, params agents.CreateParams) *agents.Agent {
	t.Helper()
	if params.Name == "" {
		params.Name = name(t)
	}
	if params.Model == nil {
		params.Model = agents.ModelID(tg.Model(t))
	}
	if params.Metadata == nil {
		params.Metadata = metadata()
	}
	a, err := tg.Client.Agents.Create(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("create agent: %v", err)
	}
	cleanup(t, "archive agent "+a.ID, func(ctx context.Context) error {
		_, err := tg.Client.Agents.Archive(ctx, a.ID)
		return err
	})
	return a
}

func newMemoryStore(t *testing.T, tg *Target, params memorystores.CreateParams) *memorystores.MemoryStore {
	t.Helper()
	if params.Name == "" {
		params.Name = name(t)
	}
	if params.Metadata == nil {
		params.Metadata = metadata()
	}
	st, err := tg.Client.MemoryStores.Create(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("create memory store: %v", err)
	}
	removeMemoryStore(t, tg, st.ID)
	return st
}

func removeMemoryStore(t *testing.T, tg *Target, id string) {
	cleanup(t, "delete memory store "+id, func(ctx context.Context) error {
		return tg.Client.MemoryStores.Delete(ctx, id)
	})
}

// newSession creates a session; with no agent or environment given it
// creates a plain agent and a cloud environment first.
func newSession(t *testing.T, tg *Target, params sessions.CreateParams) *sessions.Session {
	t.Helper()
	if params.Agent == nil {
		params.Agent = agents.AgentID(newAgent(t, tg, agents.CreateParams{}).ID)
	}
	if params.EnvironmentID == "" {
		params.EnvironmentID = newEnvironment(t, tg, environments.CreateParams{}).ID
	}
	if params.Metadata == nil {
		params.Metadata = metadata()
	}
	s, err := tg.Client.Sessions.Create(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("create session: %v", err)
	}
	removeSession(t, tg, s.ID)
	return s
}

// removeSession deletes a session when the test ends, archiving it first
// (which interrupts a running turn: a running session cannot be deleted).
func removeSession(t *testing.T, tg *Target, id string) {
	cleanup(t, "delete session "+id, func(ctx context.Context) error {
		if _, err := tg.Client.Sessions.Archive(ctx, id); err != nil && !errors.Is(err, apierror.ErrNotFound) {
			return err
		}
		err := tg.Client.Sessions.Delete(ctx, id)
		return err
	})
}
