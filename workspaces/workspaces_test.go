package workspaces_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

func TestCreateWithDefaults(t *testing.T) {
	env := reftest.New(t)
	ws, err := env.Client(t).Workspaces.Create(context.Background(), workspaces.CreateParams{Name: "research"})
	require.NoError(t, err)
	require.Equal(t, "workspace", ws.Type)
	require.Regexp(t, `^wrkspc_`, ws.ID)
	require.Equal(t, "research", ws.Name)
	require.False(t, ws.Archived())
	require.Regexp(t, `^cmpt_`, ws.CompartmentID)
	require.Regexp(t, `^#[0-9A-Fa-f]{6}$`, ws.DisplayColor)
	require.Empty(t, ws.ExternalKeyID)
	require.Empty(t, ws.Tags)
	require.Equal(t, workspaces.DataResidency{
		AllowedInferenceGeos: workspaces.UnrestrictedGeos(),
		DefaultInferenceGeo:  workspaces.GeoGlobal,
		WorkspaceGeo:         workspaces.GeoUS,
	}, ws.DataResidency)
}

func TestCreateGetUpdate(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{
		Name: "prod",
		DataResidency: &workspaces.DataResidencyParams{
			AllowedInferenceGeos: workspaces.OnlyGeos(workspaces.GeoUS),
			DefaultInferenceGeo:  workspaces.GeoUS,
			WorkspaceGeo:         workspaces.GeoUS,
		},
		DisplayColor: "#6C5BB9",
		Tags:         map[string]string{"team": "ml", "cost-center": "42"},
	})
	require.NoError(t, err)
	require.Equal(t, []workspaces.Geo{workspaces.GeoUS}, ws.DataResidency.AllowedInferenceGeos.Geos)
	require.Equal(t, "#6C5BB9", ws.DisplayColor)

	got, err := client.Workspaces.Get(ctx, ws.ID)
	require.NoError(t, err)
	require.Equal(t, ws, got)

	updated, err := client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{
		Name:          "production",
		DataResidency: &workspaces.DataResidencyUpdateParams{AllowedInferenceGeos: workspaces.UnrestrictedGeos(), DefaultInferenceGeo: workspaces.GeoGlobal},
		Tags:          map[string]string{"team": "platform"},
	})
	require.NoError(t, err)
	require.Equal(t, "production", updated.Name)
	require.Equal(t, "#6C5BB9", updated.DisplayColor, "omitted fields are kept")
	require.Equal(t, map[string]string{"team": "platform"}, updated.Tags, "tags are replaced as a whole")
	require.True(t, updated.DataResidency.AllowedInferenceGeos.Unrestricted)
	require.Equal(t, workspaces.GeoUS, updated.DataResidency.WorkspaceGeo)

	cleared, err := client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Tags: map[string]string{}})
	require.NoError(t, err)
	require.Empty(t, cleared.Tags)
	require.Equal(t, "production", cleared.Name)
}

func TestDataResidencyRulesAreEnforced(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "x", DataResidency: &workspaces.DataResidencyParams{
		AllowedInferenceGeos: workspaces.OnlyGeos(workspaces.GeoUS), DefaultInferenceGeo: workspaces.GeoGlobal}})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "default_inference_geo")

	_, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "x", DataResidency: &workspaces.DataResidencyParams{WorkspaceGeo: "mars"}})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "workspace_geo")
}

func TestExternalKeyIsWriteOnce(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "cmek"})
	require.NoError(t, err)
	ws, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{ExternalKeyID: "ekey_01first"})
	require.NoError(t, err)
	require.Equal(t, "ekey_01first", ws.ExternalKeyID)
	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{ExternalKeyID: "ekey_01first"})
	require.NoError(t, err, "setting the same key again is accepted")
	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{ExternalKeyID: "ekey_01second"})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "external_key_id")

	cloud := reftest.New(t, refserver.WithCloudEdition())
	arn := "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"
	ws, err = cloud.Client(t).Workspaces.Create(ctx, workspaces.CreateParams{Name: "aws", ExternalKeyID: arn})
	require.NoError(t, err)
	require.Equal(t, arn, ws.ExternalKeyID)
}

func TestArchiveRules(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "old"})
	require.NoError(t, err)
	archived, err := client.Workspaces.Archive(ctx, ws.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	again, err := client.Workspaces.Archive(ctx, ws.ID)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt)

	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Name: "revived"})
	require.ErrorIs(t, err, apierror.ErrConflict)
	_, err = client.Workspaces.Archive(ctx, env.Seed.DefaultWorkspaceID)
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = client.Workspaces.Get(ctx, "wrkspc_01missing")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

func TestLocalValidation(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	manyTags := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprint("k", i)] = "v"
		}
		return m
	}
	cases := []struct {
		name   string
		params workspaces.CreateParams
		field  string // "" means accepted
	}{
		{"name empty", workspaces.CreateParams{}, "name"},
		{"name 1", workspaces.CreateParams{Name: "a"}, ""},
		{"name 255", workspaces.CreateParams{Name: strings.Repeat("n", 255)}, ""},
		{"name 256", workspaces.CreateParams{Name: strings.Repeat("n", 256)}, "name"},
		{"color", workspaces.CreateParams{Name: "a", DisplayColor: "#abcdef"}, ""},
		{"color without #", workspaces.CreateParams{Name: "a", DisplayColor: "abcdef0"}, "display_color"},
		{"color not hex", workspaces.CreateParams{Name: "a", DisplayColor: "#abcdeg"}, "display_color"},
		{"50 tags", workspaces.CreateParams{Name: "a", Tags: manyTags(50)}, ""},
		{"51 tags", workspaces.CreateParams{Name: "a", Tags: manyTags(51)}, "tags"},
		{"tag key vendor", workspaces.CreateParams{Name: "a", Tags: map[string]string{"vendor:team": "x"}}, "tags"},
		{"tag key Vendor", workspaces.CreateParams{Name: "a", Tags: map[string]string{"VendorX": "x"}}, "tags"},
		{"tag key 128", workspaces.CreateParams{Name: "a", Tags: map[string]string{strings.Repeat("k", 128): "x"}}, ""},
		{"tag key 129", workspaces.CreateParams{Name: "a", Tags: map[string]string{strings.Repeat("k", 129): "x"}}, "tags"},
		{"tag key empty", workspaces.CreateParams{Name: "a", Tags: map[string]string{"": "x"}}, "tags"},
		{"tag value 256", workspaces.CreateParams{Name: "a", Tags: map[string]string{"k": strings.Repeat("v", 256)}}, ""},
		{"tag value 257", workspaces.CreateParams{Name: "a", Tags: map[string]string{"k": strings.Repeat("v", 257)}}, "tags.k"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.Server.Requests())
			_, err := client.Workspaces.Create(ctx, tc.params)
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var verr *apierror.ValidationError
			require.ErrorAs(t, err, &verr)
			require.Equal(t, tc.field, verr.Field)
			require.Len(t, env.Server.Requests(), before, "nothing is sent")
		})
	}
	_, err := client.Workspaces.Update(ctx, env.Seed.DefaultWorkspaceID, workspaces.UpdateParams{DisplayColor: "red"})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}
