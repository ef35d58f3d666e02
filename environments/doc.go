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
// # Work queue
//
// A self-hosted environment's sessions reach the client's machines
// through its work queue (Service.Work): the platform queues an item per
// session that needs a machine; a worker polls it, acknowledges it, and
// heartbeats to keep its lease while it runs the session's sandbox tools.
// A lease that is not renewed in time sends the item back to the queue;
// the old holder's next heartbeat then fails with ErrLeaseLost.
//
// Workers authenticate with the environment's key (from the platform's
// console), a credential scoped to that environment. Give it to each call
// with option.WithAPIKey, which sends it as "Authorization: Bearer <key>";
// the client's own key stays in use for the other calls:
//
//	key := option.WithAPIKey(environmentKey)
//	w, err := client.Environments.Work.Poll(ctx, envID, environments.PollParams{Block: 500 * time.Millisecond}, key)
//	if err == nil && w != nil {
//		w, err = client.Environments.Work.Ack(ctx, envID, w.ID, key)
//	}
//	hb, err := client.Environments.Work.Heartbeat(ctx, envID, w.ID,
//		environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat}, key)
//	if errors.Is(err, environments.ErrLeaseLost) { … } // stop working on the item
//
// Poll returns nil and no error when nothing arrived within Block. Get and
// Update take an API key; Stop and Stats take either.
//
// Config and Networking are sealed unions with Unknown variants that keep
// types newer than this SDK intact. Every call sends the vendor-beta value
// these endpoints require.
package environments
