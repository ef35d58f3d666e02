// Package environments manages environments: where sessions run, either a
// platform-hosted container (CloudConfig: networking and packages) or the
// client's own infrastructure (SelfHostedConfig).
//
//	env, err := client.Environments.Create(ctx, environments.CreateParams{
//		Name: "python-data",
//		Config: environments.CloudConfig{
//			Networking: environments.LimitedNetworking{
//				AllowedHosts:         []string{"api.example.com"},
//				AllowPackageManagers: new(true),
//			},
//			Packages: &environments.Packages{Pip: []string{"pandas", "numpy"}},
//		},
//	})
//	// Update merges: this keeps the packages and the allowed hosts.
//	env, err = client.Environments.Update(ctx, env.ID, environments.UpdateParams{
//		Config: environments.CloudConfig{Networking: environments.LimitedNetworking{AllowMCPServers: new(true)}},
//	})
//	for e, err := range client.Environments.All(ctx, environments.ListParams{}) { … }
//
// Rules the API enforces: the config type (cloud or self_hosted) is fixed
// at creation; limited networking with packages needs
// AllowPackageManagers; archived environments cannot be updated or used by
// new sessions; Delete is permanent.
//
// Config and Networking are sealed unions with Unknown variants that keep
// types newer than this SDK intact. Every call sends the vendor-beta value
// these endpoints require.
package environments
