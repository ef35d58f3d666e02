package agentplatform_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestConcurrentUse shares one client between goroutines that mix reads,
// writes, per-call options and retried failures. Run with -race.
func TestConcurrentUse(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	// 20 failures for the lists to share, and as many retries for each: how
	// the failures fall between the workers depends on the scheduling, but
	// no list can run out of retries, whatever it is.
	const failures = 20
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503, Times: failures})

	const workers = 32
	var wg sync.WaitGroup
	errs := make(chan error, workers*4)
	for i := range workers {
		wg.Go(func() {
			if _, err := client.Models.List(ctx, models.ListParams{Limit: 2}, option.WithMaxRetries(failures)); err != nil {
				errs <- err
			}
			if _, err := client.Models.Get(ctx, models.VendorSonnet55, option.WithHeader("X-Worker", fmt.Sprint(i))); err != nil {
				errs <- err
			}
			if _, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: fmt.Sprint("w", i)},
				option.WithBeta("skills-2025-10-02")); err != nil {
				errs <- err
			}
			for _, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 5}) {
				if err != nil {
					errs <- err
					break
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	n := 0
	for _, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 1000}) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, workers, n)
}
