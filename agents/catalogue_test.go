package agents_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/models"
)

// TestModelMustBeInCatalogue: the server refuses a model id that List
// Models does not show, and an effort the model's capabilities exclude,
// naming the field; a model config read back from an agent can be sent
// again as is.
func TestModelMustBeInCatalogue(t *testing.T) {
	_, client := newClient(t)
	for _, tc := range []struct {
		model agents.ModelParam
		field string
	}{
		{agents.ModelID("gpt-4o"), "model"},
		{agents.ModelConfig{ID: "gpt-4o"}, "model.id"},
		{agents.ModelConfig{ID: models.VendorSonnet55, Effort: "xhigh"}, "model.effort"},
	} {
		_, err := client.Agents.Create(ctx, agents.CreateParams{Name: "n", Model: tc.model})
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
		var apiErr *apierror.Error
		require.ErrorAs(t, err, &apiErr)
		require.True(t, strings.HasPrefix(apiErr.Message, tc.field+": "), apiErr.Message)
	}

	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "n", Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "copy", Model: a.Model})
	require.NoError(t, err)
}
