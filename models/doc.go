// Package models is the model catalogue: which models exist, their limits
// and what each supports.
//
//	m, err := client.Models.Get(ctx, "vendor-opus-5-5")
//	if m.Capabilities.Effort.XHigh.Supported { … }
//
//	for m, err := range client.Models.All(ctx, models.ListParams{}) { … } // newest first
package models
