package memorystores_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
)

const (
	memoryBeta        = "agent-memory-2026-07-22" // what the SDK sends
	managedAgentsBeta = "managed-agents-2026-04-01"
)

// TestEveryEndpointTakesEitherBeta calls every endpoint twice: with the
// SDK's own beta value and with the managed-agents value in its place.
func TestEveryEndpointTakesEitherBeta(t *testing.T) {
	for _, beta := range []string{memoryBeta, managedAgentsBeta} {
		t.Run(beta, func(t *testing.T) {
			env := reftest.New(t)
			client := env.Client(t)
			ctx := context.Background()
			var opts []option.Option
			if beta != memoryBeta {
				opts = append(opts, option.WithHeader("vendor-beta", beta))
			}
			lastBeta := func() string {
				reqs := env.Server.Requests()
				return reqs[len(reqs)-1].Header.Get("vendor-beta")
			}
			ok := func(name string, err error) {
				t.Helper()
				require.NoError(t, err, name)
				require.Equal(t, beta, lastBeta(), name)
			}
			svc := client.MemoryStores
			st, err := svc.Create(ctx, memorystores.CreateParams{Name: "b"}, opts...)
			ok("M1 create", err)
			_, err = svc.Get(ctx, st.ID, opts...)
			ok("M2 get", err)
			_, err = svc.List(ctx, memorystores.ListParams{}, opts...)
			ok("M3 list", err)
			_, err = svc.Update(ctx, st.ID, memorystores.UpdateParams{Name: "c"}, opts...)
			ok("M4 update", err)
			m, err := svc.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a.md", Content: "1"}, opts...)
			ok("MM1 create", err)
			_, err = svc.Memories.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{}, opts...)
			ok("MM2 get", err)
			_, err = svc.Memories.List(ctx, st.ID, memorystores.MemoryListParams{}, opts...)
			ok("MM3 list", err)
			_, err = svc.Memories.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("2")}, opts...)
			ok("MM4 update", err)
			versions, err := svc.Versions.List(ctx, st.ID, memorystores.VersionListParams{}, opts...)
			ok("MV1 list", err)
			_, err = svc.Versions.Get(ctx, st.ID, versions.Data[1].ID, memorystores.VersionGetParams{}, opts...)
			ok("MV2 get", err)
			_, err = svc.Versions.Redact(ctx, st.ID, versions.Data[1].ID, opts...)
			ok("MV3 redact", err)
			err = svc.Memories.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{}, opts...)
			ok("MM5 delete", err)
			_, err = svc.Archive(ctx, st.ID, opts...)
			ok("M5 archive", err)
			err = svc.Delete(ctx, st.ID, opts...)
			ok("M6 delete", err)
		})
	}

	t.Run("another beta alone is refused", func(t *testing.T) {
		env := reftest.New(t)
		_, err := env.Client(t).MemoryStores.List(context.Background(), memorystores.ListParams{},
			option.WithHeader("vendor-beta", "mcp-tunnels-2026-06-22"))
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
		require.ErrorContains(t, err, "vendor-beta: this endpoint requires one of the beta values `agent-memory-2026-07-22`, `managed-agents-2026-04-01`")
	})
}
