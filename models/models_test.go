package models_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
)

func TestGetDecodesEveryField(t *testing.T) {
	env := reftest.New(t)
	m, err := env.Client(t).Models.Get(context.Background(), models.VendorOpus55)
	require.NoError(t, err)
	require.Equal(t, "model", m.Type)
	require.Equal(t, models.VendorOpus55, m.ID)
	require.Equal(t, "Vendor Opus 5.5", m.DisplayName)
	require.Equal(t, models.LifecycleActive, m.Lifecycle)
	require.Equal(t, models.LineOpus, m.Line)
	require.True(t, m.DeprecatedAt.IsZero())
	require.True(t, m.RetiresAt.IsZero())
	require.Equal(t, 1_000_000, m.MaxInputTokens)
	require.Equal(t, 128_000, m.MaxTokens)
	require.False(t, m.CreatedAt.IsZero())

	yes := models.Capability{Supported: true}
	want := models.Capabilities{
		Batch: yes, Citations: yes, CodeExecution: yes,
		ContextManagement: models.ContextManagementCapability{Supported: true,
			ClearThinking20251015: yes, ClearToolUses20250919: yes, Compact20260112: yes},
		Effort:     models.EffortCapability{Supported: true, Low: yes, Medium: yes, High: yes, Max: yes, XHigh: yes},
		ImageInput: yes, PDFInput: yes,
		ServerTools:       models.ServerToolsCapability{Supported: true, CodeExecution: yes, WebSearch: yes},
		StructuredOutputs: yes,
		Thinking: models.ThinkingCapability{Supported: true,
			Types: models.ThinkingTypes{Adaptive: yes, Disabled: yes, Enabled: yes}},
	}
	require.Empty(t, cmp.Diff(want, m.Capabilities))
}

func TestCapabilitiesDifferByModel(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	sonnet, err := client.Models.Get(context.Background(), models.VendorSonnet55)
	require.NoError(t, err)
	require.True(t, sonnet.Capabilities.Effort.Supported)
	require.False(t, sonnet.Capabilities.Effort.XHigh.Supported)

	haiku, err := client.Models.Get(context.Background(), models.VendorHaiku55)
	require.NoError(t, err)
	require.Equal(t, models.LineHaiku, haiku.Line)
	require.False(t, haiku.Capabilities.Effort.Supported)
	require.False(t, haiku.Capabilities.Thinking.Types.Adaptive.Supported)
	require.False(t, haiku.Capabilities.ContextManagement.Compact20260112.Supported)
}

func TestCapabilitiesKeepUnknownKeys(t *testing.T) {
	in := `{"batch":{"supported":true},"teleportation":{"supported":true}}`
	var c models.Capabilities
	require.NoError(t, json.Unmarshal([]byte(in), &c))
	require.True(t, c.Batch.Supported)
	require.JSONEq(t, `{"supported":true}`, string(c.Extra["teleportation"]))
	out, err := json.Marshal(c)
	require.NoError(t, err)
	var back map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(out, &back))
	require.JSONEq(t, `{"supported":true}`, string(back["teleportation"]))
}

func TestListIsNewestFirst(t *testing.T) {
	env := reftest.New(t)
	page, err := env.Client(t).Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 6)
	for i := 1; i < len(page.Data); i++ {
		require.True(t, page.Data[i-1].CreatedAt.After(page.Data[i].CreatedAt))
	}
	require.False(t, page.HasMore)
}

func TestUnknownModel(t *testing.T) {
	env := reftest.New(t)
	_, err := env.Client(t).Models.Get(context.Background(), "vendor-unknown")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

// Every model id the package names is in the catalogue, at the lifecycle
// stage its doc gives it; a deprecated model says when it retires.
func TestNamedModelsAreInTheCatalogue(t *testing.T) {
	client := reftest.New(t).Client(t)
	for id, want := range map[string]models.Lifecycle{
		models.VendorHaiku55: models.LifecycleActive, models.VendorSonnet55: models.LifecycleActive, models.VendorOpus55: models.LifecycleActive,
		models.VendorHaiku45: models.LifecycleDeprecated, models.VendorSonnet45: models.LifecycleDeprecated, models.VendorOpus45: models.LifecycleDeprecated,
	} {
		m, err := client.Models.Get(context.Background(), id)
		require.NoError(t, err, id)
		require.Equal(t, want, m.Lifecycle, id)
		require.Equal(t, want == models.LifecycleDeprecated, !m.RetiresAt.IsZero(), "%s: a retirement date exactly when deprecated", id)
	}
}

// TestThinkingTypesKnowBetweenTools: the catalogue sends
// thinking.types.between_tools and the SDK decodes it into its own field,
// not into Extra.
func TestThinkingTypesKnowBetweenTools(t *testing.T) {
	client := reftest.New(t).Client(t)
	var raw struct {
		Capabilities struct {
			Thinking struct {
				Types map[string]json.RawMessage `json:"types"`
			} `json:"thinking"`
		} `json:"capabilities"`
	}
	require.NoError(t, client.Execute(context.Background(), "GET", "/v1/models/"+models.VendorOpus55, nil, &raw))
	require.JSONEq(t, `{"supported":false}`, string(raw.Capabilities.Thinking.Types["between_tools"]))

	m, err := client.Models.Get(context.Background(), models.VendorOpus55)
	require.NoError(t, err)
	types := m.Capabilities.Thinking.Types
	require.NotContains(t, types.Extra, "between_tools")
	require.False(t, types.BetweenTools.Supported)
}
