package memorystores_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
)

// start is the frozen time of tests that control the clock.
var start = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)

// newClockEnv starts a server whose clock moves only when the test says.
func newClockEnv(t *testing.T) (*reftest.Env, *agentplatform.Client, *refserver.ManualClock) {
	t.Helper()
	clock := refserver.NewManualClock(start)
	env := reftest.New(t, refserver.WithClock(clock))
	return env, env.Client(t), clock
}

func newStore(t *testing.T, client *agentplatform.Client, name string) *memorystores.MemoryStore {
	t.Helper()
	st, err := client.MemoryStores.Create(context.Background(), memorystores.CreateParams{Name: name})
	require.NoError(t, err)
	return st
}

func newMemory(t *testing.T, client *agentplatform.Client, storeID, path, content string) *memorystores.Memory {
	t.Helper()
	m, err := client.MemoryStores.Memories.Create(context.Background(), storeID,
		memorystores.MemoryCreateParams{Path: path, Content: content})
	require.NoError(t, err)
	return m
}

func storeIDs(stores []memorystores.MemoryStore) []string {
	out := make([]string, len(stores))
	for i, s := range stores {
		out[i] = s.ID
	}
	return out
}

// itemPaths renders a listing as paths, prefixes marked by their trailing "/".
func itemPaths(t *testing.T, items []memorystores.ListItem) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, it := range items {
		switch it := it.(type) {
		case *memorystores.Memory:
			out[i] = it.Path
		case *memorystores.MemoryPrefix:
			out[i] = it.Path
		default:
			t.Fatalf("unexpected item %T", it)
		}
	}
	return out
}
