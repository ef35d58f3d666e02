package conformance_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/param"
)

// TestEnvironmentLifecycle creates, reads, lists, updates, archives and
// deletes an environment.
func TestEnvironmentLifecycle(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	env := newEnvironment(t, tg, environments.CreateParams{
		Description: "created by the conformance tests",
		Config: environments.CloudConfig{
			Networking: environments.LimitedNetworking{
				AllowedHosts:         []string{"api.example.com"},
				AllowPackageManagers: new(true),
			},
			Packages: &environments.Packages{Pip: []string{"requests"}},
		},
		Metadata: map[string]string{"created_by": "agentplatform-go/conformance", "stage": "one"},
	})
	if env.Type != "environment" || env.ID == "" || env.Archived() || env.CreatedAt.IsZero() {
		t.Fatalf("created environment: %+v", env)
	}
	cloud, ok := env.Config.(environments.CloudConfig)
	if !ok {
		t.Fatalf("config is %T, want CloudConfig", env.Config)
	}
	limited, ok := cloud.Networking.(environments.LimitedNetworking)
	if !ok {
		t.Fatalf("networking is %T, want LimitedNetworking", cloud.Networking)
	}
	if d := cmp.Diff([]string{"api.example.com"}, limited.AllowedHosts); d != "" {
		t.Errorf("allowed hosts (-want +got):\n%s", d)
	}
	if cloud.Packages == nil || len(cloud.Packages.Pip) != 1 || cloud.Packages.Pip[0] != "requests" {
		t.Errorf("packages: %+v", cloud.Packages)
	}

	got, err := c.Environments.Get(ctx, env.ID)
	if err != nil {
		t.Fatalf("get environment: %v", err)
	}
	if d := cmp.Diff(env, got); d != "" {
		t.Errorf("Get differs from Create (-create +get):\n%s", d)
	}

	found := false
	for e, err := range c.Environments.All(ctx, environments.ListParams{}) {
		if err != nil {
			t.Fatalf("list environments: %v", err)
		}
		if e.ID == env.ID {
			found = true
			break
		}
	}
	if !found {
		t.Errorf("environment %s is not listed", env.ID)
	}

	// Update merges: the packages and the allowed hosts stay.
	newName := name(t)
	upd, err := c.Environments.Update(ctx, env.ID, environments.UpdateParams{
		Name:        newName,
		Description: param.Null[string](),
		Config:      environments.CloudConfig{Networking: environments.LimitedNetworking{AllowMCPServers: new(true)}},
		Metadata:    map[string]*string{"stage": new("two"), "extra": new("x")},
	})
	if err != nil {
		t.Fatalf("update environment: %v", err)
	}
	if upd.Name != newName || upd.Description != "" {
		t.Errorf("after update: name %q, description %q", upd.Name, upd.Description)
	}
	if d := cmp.Diff(map[string]string{"created_by": "agentplatform-go/conformance", "stage": "two", "extra": "x"}, upd.Metadata); d != "" {
		t.Errorf("metadata after the patch (-want +got):\n%s", d)
	}
	if cloud, ok := upd.Config.(environments.CloudConfig); !ok {
		t.Errorf("config after update is %T", upd.Config)
	} else if l, ok := cloud.Networking.(environments.LimitedNetworking); !ok || len(l.AllowedHosts) != 1 ||
		l.AllowMCPServers == nil || !*l.AllowMCPServers || cloud.Packages == nil || len(cloud.Packages.Pip) != 1 {
		t.Errorf("update did not merge the config: %+v", cloud)
	}

	arch, err := c.Environments.Archive(ctx, env.ID)
	if err != nil {
		t.Fatalf("archive environment: %v", err)
	}
	if !arch.Archived() {
		t.Errorf("archived environment has no archived_at")
	}
	again, err := c.Environments.Archive(ctx, env.ID)
	if err != nil || !again.ArchivedAt.Equal(arch.ArchivedAt) {
		t.Errorf("archiving again: %v, archived_at %s then %s", err, arch.ArchivedAt, again.ArchivedAt)
	}
	_, err = c.Environments.Update(ctx, env.ID, environments.UpdateParams{Name: name(t)})
	wantStatus(t, err, 409)

	for e, err := range c.Environments.All(ctx, environments.ListParams{}) {
		if err != nil {
			t.Fatalf("list environments: %v", err)
		}
		if e.ID == env.ID {
			t.Errorf("archived environment %s listed without IncludeArchived", env.ID)
			break
		}
	}

	if err := c.Environments.Delete(ctx, env.ID); err != nil {
		t.Fatalf("delete environment: %v", err)
	}
	if _, err := c.Environments.Get(ctx, env.ID); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get after delete: want ErrNotFound, got %v", err)
	}
}

// TestSelfHostedEnvironment: the config type is kept as created.
func TestSelfHostedEnvironment(t *testing.T) {
	tg := target(t)
	env := newEnvironment(t, tg, environments.CreateParams{Config: environments.SelfHostedConfig{}})
	got, err := tg.Client.Environments.Get(tg.ctx(t), env.ID)
	if err != nil {
		t.Fatalf("get environment: %v", err)
	}
	if _, ok := got.Config.(environments.SelfHostedConfig); !ok {
		t.Errorf("config is %T, want SelfHostedConfig", got.Config)
	}
}
