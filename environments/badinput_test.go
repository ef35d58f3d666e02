package environments_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/param"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	e := create(t, client, environments.CreateParams{Name: "target"})
	rep := strings.Repeat
	createWith := func(edit func(*environments.CreateParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := environments.CreateParams{Name: "e"}
			edit(&p)
			_, err := c.Environments.Create(ctx, p)
			return err
		}
	}
	config := func(c environments.Config) func(*environments.CreateParams) {
		return func(p *environments.CreateParams) { p.Config = c }
	}
	limited := func(n environments.LimitedNetworking) func(*environments.CreateParams) {
		return config(environments.CloudConfig{Networking: n})
	}
	update := func(id string, p environments.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.Update(ctx, id, p)
			return err
		}
	}
	byID := func(op func(context.Context, *agentplatform.Client, string) error) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { return op(ctx, c, "") }
	}
	list := func(p environments.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.List(ctx, p)
			return err
		}
	}
	pip := func(specs ...string) *environments.Packages { return &environments.Packages{Pip: specs} }
	raw := func(typ string) json.RawMessage { return json.RawMessage(`{"type":"` + typ + `"}`) }
	reftest.RunBadInput(t, env, client, []badInput{
		{"create name empty", createWith(func(p *environments.CreateParams) { p.Name = "" }), "name", "between 1 and 256 characters", true},
		{"create name 257", createWith(func(p *environments.CreateParams) { p.Name = rep("n", 257) }), "name", "between 1 and 256 characters", true},
		{"create description 1025", createWith(func(p *environments.CreateParams) { p.Description = rep("d", 1025) }), "description", "at most 1024 characters", true},
		{"create config type unknown", createWith(config(environments.UnknownConfig{Type: "docker", JSON: raw("docker")})), "config.type", "must be one of `cloud`, `self_hosted`", false},
		{"create networking type unknown", createWith(config(environments.CloudConfig{Networking: environments.UnknownNetworking{Type: "open", JSON: raw("open")}})),
			"config.networking.type", "must be one of `unrestricted`, `limited`", false},
		{"create packages 101", createWith(config(environments.CloudConfig{Packages: pip(make([]string, 101)...)})), "config.packages.pip", "at most 100 items", true},
		{"create package spec empty", createWith(config(environments.CloudConfig{Packages: &environments.Packages{Npm: []string{""}}})),
			"config.packages.npm[0]", "between 1 and 256 characters", true},
		{"create package spec 257", createWith(config(environments.CloudConfig{Packages: pip("pandas", rep("p", 257))})), "config.packages.pip[1]", "between 1 and 256 characters", true},
		{"create hosts 101", createWith(limited(environments.LimitedNetworking{AllowedHosts: hosts(101)})), "config.networking.allowed_hosts", "at most 100 items", true},
		{"create host empty", createWith(limited(environments.LimitedNetworking{AllowedHosts: []string{""}})), "config.networking.allowed_hosts[0]", "must be a hostname", true},
		{"create host url", createWith(limited(environments.LimitedNetworking{AllowedHosts: []string{"api.example.com", "https://api.example.com"}})),
			"config.networking.allowed_hosts[1]", "must be a hostname", true},
		{"create host with port", createWith(limited(environments.LimitedNetworking{AllowedHosts: []string{"api.example.com:443"}})),
			"config.networking.allowed_hosts[0]", "must be a hostname", true},
		{"create host 254", createWith(limited(environments.LimitedNetworking{AllowedHosts: []string{rep("a.", 126) + "ab"}})),
			"config.networking.allowed_hosts[0]", "must be a hostname", true},
		{"create packages without package managers", createWith(func(p *environments.CreateParams) {
			p.Config = environments.CloudConfig{Networking: environments.LimitedNetworking{}, Packages: pip("pandas")}
		}), "config.networking.allow_package_managers", "must be true when packages are specified", true},
		{"create scope unknown", createWith(func(p *environments.CreateParams) { p.Scope = "planet" }), "scope", "must be one of `organization`, `account`", false},
		{"create scope account", createWith(func(p *environments.CreateParams) { p.Scope = "account" }), "scope", "`account` is not supported", false},
		{"create metadata 17 pairs", createWith(func(p *environments.CreateParams) {
			p.Metadata = map[string]string{}
			for i := range 17 {
				p.Metadata[rep("k", i+1)] = "v"
			}
		}), "metadata", "at most 16 pairs", true},
		{"create metadata key 65", createWith(func(p *environments.CreateParams) { p.Metadata = map[string]string{rep("k", 65): "v"} }),
			"metadata", "keys must be between 1 and 64 characters", true},
		{"create metadata value 513", createWith(func(p *environments.CreateParams) { p.Metadata = map[string]string{"k": rep("v", 513)} }),
			"metadata.k", "at most 512 characters", true},

		{"get empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			_, err := c.Environments.Get(ctx, id)
			return err
		}),
			"environment_id", "must not be empty", true},
		{"archive empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			_, err := c.Environments.Archive(ctx, id)
			return err
		}),
			"environment_id", "must not be empty", true},
		{"delete empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			return c.Environments.Delete(ctx, id)
		}),
			"environment_id", "must not be empty", true},
		{"update empty id", update("", environments.UpdateParams{Name: "x"}), "environment_id", "must not be empty", true},
		{"update name 257", update(e.ID, environments.UpdateParams{Name: rep("n", 257)}), "name", "between 1 and 256 characters", true},
		{"update description 1025", update(e.ID, environments.UpdateParams{Description: param.Value(rep("d", 1025))}), "description", "at most 1024 characters", true},
		{"update host url", update(e.ID, environments.UpdateParams{Config: environments.CloudConfig{Networking: environments.LimitedNetworking{AllowedHosts: []string{"http://x"}}}}),
			"config.networking.allowed_hosts[0]", "must be a hostname", true},
		{"update package spec empty", update(e.ID, environments.UpdateParams{Config: environments.CloudConfig{Packages: pip("")}}),
			"config.packages.pip[0]", "between 1 and 256 characters", true},
		{"update config type change", update(e.ID, environments.UpdateParams{Config: environments.SelfHostedConfig{}}), "config.type", "cannot change the environment type", false},
		{"update metadata key empty", update(e.ID, environments.UpdateParams{Metadata: map[string]*string{"": nil}}), "metadata", "keys must be between 1 and 64 characters", true},
		{"update metadata value 513", update(e.ID, environments.UpdateParams{Metadata: map[string]*string{"k": new(rep("v", 513))}}), "metadata.k", "at most 512 characters", true},
		{"update scope unknown", update(e.ID, environments.UpdateParams{Scope: "planet"}), "scope", "must be one of", false},

		{"list limit -1", list(environments.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(environments.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list page", list(environments.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 1001", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Environments.All(ctx, environments.ListParams{Limit: 1001}))
		}, "limit", "between 1 and 1000", true},
	})
}
