package environments_test

import (
	"context"
	"fmt"
	"log"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// An environment is where an agent's sessions run. The example uses
// platformtest, the in-process reference server; a program calls
// agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	// Limited networking: only the listed hosts, plus package registries,
	// which installing packages needs.
	env, err := client.Environments.Create(ctx, environments.CreateParams{
		Name: "python-data",
		Config: environments.CloudConfig{
			Networking: environments.LimitedNetworking{
				AllowedHosts:         []string{"api.example.com"},
				AllowPackageManagers: new(true),
			},
			Packages: &environments.Packages{Pip: []string{"pandas", "numpy"}},
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	// Update merges into the stored config: hosts and packages are kept.
	env, err = client.Environments.Update(ctx, env.ID, environments.UpdateParams{
		Config: environments.CloudConfig{Networking: environments.LimitedNetworking{AllowMCPServers: new(true)}},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Config and Networking are unions: switch on the concrete type.
	if cfg, ok := env.Config.(environments.CloudConfig); ok {
		if n, ok := cfg.Networking.(environments.LimitedNetworking); ok {
			fmt.Println(env.Name, n.AllowedHosts, *n.AllowPackageManagers, *n.AllowMCPServers, cfg.Packages.Pip)
		}
	}
	// Output:
	// python-data [api.example.com] true true [pandas numpy]
}

// A self-hosted environment runs sessions on your own machines: your code
// executes the agent's sandbox tools.
func ExampleSelfHostedConfig() {
	client, done := exampleClient()
	defer done()
	ctx := context.Background()

	env, err := client.Environments.Create(ctx, environments.CreateParams{
		Name:   "on-prem",
		Config: environments.SelfHostedConfig{},
	})
	if err != nil {
		log.Fatal(err)
	}
	switch env.Config.(type) {
	case environments.SelfHostedConfig:
		fmt.Println(env.Name, "runs on our machines")
	case environments.CloudConfig:
		fmt.Println(env.Name, "runs on the platform")
	}

	// Archived environments take no new sessions but stay listable on request.
	if _, err := client.Environments.Archive(ctx, env.ID); err != nil {
		log.Fatal(err)
	}
	for e, err := range client.Environments.All(ctx, environments.ListParams{IncludeArchived: true}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Name, "archived:", e.Archived())
	}
	// Output:
	// on-prem runs on our machines
	// on-prem archived: true
}

// exampleClient starts a reference server and returns a client for it and a
// function that closes both, as Example does step by step.
func exampleClient() (*agentplatform.Client, func()) {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return client, func() {
		client.Close()
		srv.Close()
	}
}
