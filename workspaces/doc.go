// Package workspaces is the organization administration API for
// workspaces.
//
// These endpoints belong to the admin API: they accept a personal or service
// account key only when the key is not scoped to a workspace.
//
//	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{
//		Name: "research",
//		DataResidency: &workspaces.DataResidencyParams{
//			AllowedInferenceGeos: workspaces.OnlyGeos(workspaces.GeoUS),
//			DefaultInferenceGeo:  workspaces.GeoUS,
//		},
//	})
//	ws, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Tags: map[string]string{"team": "ml"}})
//
//	// Newest first; the default workspace and archived ones only on request.
//	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{IncludeDefault: true}) { … }
//
// Rules the API enforces: workspace_geo is fixed at creation; external_key_id
// is write-once; tag keys must not begin with "vendor"; archiving is one-way.
// The organization's API keys are administered in package apikeys.
package workspaces
