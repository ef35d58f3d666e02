package workspaces_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ws, err := client.Workspaces.Create(context.Background(), workspaces.CreateParams{Name: "target"})
	require.NoError(t, err)

	create := func(edit func(*workspaces.CreateParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := workspaces.CreateParams{Name: "w"}
			edit(&p)
			_, err := c.Workspaces.Create(ctx, p)
			return err
		}
	}
	update := func(id string, p workspaces.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Workspaces.Update(ctx, id, p)
			return err
		}
	}
	residency := func(allowed workspaces.AllowedGeos, def, geo workspaces.Geo) func(*workspaces.CreateParams) {
		return func(p *workspaces.CreateParams) {
			p.DataResidency = &workspaces.DataResidencyParams{AllowedInferenceGeos: allowed, DefaultInferenceGeo: def, WorkspaceGeo: geo}
		}
	}
	tags := func(m map[string]string) func(*workspaces.CreateParams) {
		return func(p *workspaces.CreateParams) { p.Tags = m }
	}
	manyTags := map[string]string{}
	for i := range 51 {
		manyTags[strings.Repeat("k", i+1)] = "v"
	}
	list := func(p workspaces.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Workspaces.List(ctx, p)
			return err
		}
	}
	reftest.RunBadInput(t, env, client, []badInput{
		{"create name empty", create(func(p *workspaces.CreateParams) { p.Name = "" }), "name", "between 1 and 255 characters", true},
		{"create name 256", create(func(p *workspaces.CreateParams) { p.Name = strings.Repeat("n", 256) }), "name", "between 1 and 255 characters", true},
		{"create display_color", create(func(p *workspaces.CreateParams) { p.DisplayColor = "purple" }), "display_color", "must be a hex color of the form #RRGGBB", true},
		{"create display_color short", create(func(p *workspaces.CreateParams) { p.DisplayColor = "#6C5BB" }), "display_color", "must be a hex color of the form #RRGGBB", true},
		{"create tags 51", create(tags(manyTags)), "tags", "must have at most 50 entries", true},
		{"create tag key empty", create(tags(map[string]string{"": "v"})), "tags", "keys must be between 1 and 128 characters", true},
		{"create tag key 129", create(tags(map[string]string{strings.Repeat("k", 129): "v"})), "tags", "keys must be between 1 and 128 characters", true},
		{"create tag key reserved", create(tags(map[string]string{"Vendor-team": "v"})), "tags", "key `Vendor-team` must not begin with `vendor`", true},
		{"create tag value 257", create(tags(map[string]string{"team": strings.Repeat("v", 257)})), "tags.team", "must be at most 256 characters", true},
		{"create allowed geos empty", create(residency(workspaces.AllowedGeos{Geos: []workspaces.Geo{}}, "", "")),
			"data_residency.allowed_inference_geos", "non-empty array of distinct values", true},
		{"create allowed geos repeated", create(residency(workspaces.OnlyGeos(workspaces.GeoUS, workspaces.GeoUS), "", "")),
			"data_residency.allowed_inference_geos", "non-empty array of distinct values", true},
		{"create allowed geo unknown", create(residency(workspaces.OnlyGeos("mars"), "", "")),
			"data_residency.allowed_inference_geos", "non-empty array of distinct values", false},
		{"create default geo outside allowed", create(residency(workspaces.OnlyGeos(workspaces.GeoUS), workspaces.GeoGlobal, "")),
			"data_residency.default_inference_geo", "must be one of data_residency.allowed_inference_geos", true},
		{"create default geo unknown", create(residency(workspaces.AllowedGeos{}, "mars", "")),
			"data_residency.default_inference_geo", "must be one of `global`, `us`", false},
		{"create workspace geo unknown", create(residency(workspaces.AllowedGeos{}, "", "eu")), "data_residency.workspace_geo", "must be `us`", false},
		{"create external key id form", create(func(p *workspaces.CreateParams) { p.ExternalKeyID = "key_1" }), "external_key_id", "must be an encryption key configuration id", false},

		{"get empty id", func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Workspaces.Get(ctx, "")
			return err
		}, "workspace_id", "must not be empty", true},
		{"archive empty id", func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Workspaces.Archive(ctx, "")
			return err
		}, "workspace_id", "must not be empty", true},
		{"update empty id", update("", workspaces.UpdateParams{Name: "x"}), "workspace_id", "must not be empty", true},
		{"update name 256", update(ws.ID, workspaces.UpdateParams{Name: strings.Repeat("n", 256)}), "name", "between 1 and 255 characters", true},
		{"update display_color", update(ws.ID, workspaces.UpdateParams{DisplayColor: "#GGGGGG"}), "display_color", "must be a hex color of the form #RRGGBB", true},
		{"update tag key reserved", update(ws.ID, workspaces.UpdateParams{Tags: map[string]string{"vendor": "v"}}), "tags", "must not begin with `vendor`", true},
		{"update allowed geos empty", update(ws.ID, workspaces.UpdateParams{DataResidency: &workspaces.DataResidencyUpdateParams{
			AllowedInferenceGeos: workspaces.AllowedGeos{Geos: []workspaces.Geo{}}}}), "data_residency.allowed_inference_geos", "non-empty array of distinct values", true},
		{"update default geo outside allowed", update(ws.ID, workspaces.UpdateParams{DataResidency: &workspaces.DataResidencyUpdateParams{
			AllowedInferenceGeos: workspaces.OnlyGeos(workspaces.GeoGlobal), DefaultInferenceGeo: workspaces.GeoUS}}),
			"data_residency.default_inference_geo", "must be one of data_residency.allowed_inference_geos", true},
		{"update default geo outside stored allowed", update(ws.ID, workspaces.UpdateParams{DataResidency: &workspaces.DataResidencyUpdateParams{
			DefaultInferenceGeo: "mars"}}), "data_residency.default_inference_geo", "must be one of `global`, `us`", false},
		{"update external key id form", update(ws.ID, workspaces.UpdateParams{ExternalKeyID: "ekey_!"}), "external_key_id", "must be an encryption key configuration id", false},

		{"list limit -1", list(workspaces.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(workspaces.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list after and before", list(workspaces.ListParams{AfterID: ws.ID, BeforeID: ws.ID}), "after_id", "cannot be combined with before_id", true},
		{"list after unknown id", list(workspaces.ListParams{AfterID: "wrkspc_nope"}), "after_id", "no object with id", false},
		{"all limit 1001", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Workspaces.All(ctx, workspaces.ListParams{Limit: 1001}))
		}, "limit", "between 1 and 1000", true},
	})
}
