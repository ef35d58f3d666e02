package files_test

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// heapWatch samples the heap in use during a transfer. The reference
// server runs in the same process, so the figure covers both ends: an
// upload or download that held the file would show it whole.
type heapWatch struct {
	base, peak uint64
	next       int64
}

const heapEvery = 32 << 20 // bytes between samples

func newHeapWatch() *heapWatch {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &heapWatch{base: ms.HeapInuse, peak: ms.HeapInuse}
}

// at samples the heap when n bytes have gone past the next mark.
func (h *heapWatch) at(n int64) {
	if n < h.next {
		return
	}
	h.next = n + heapEvery
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapInuse)
}

func (h *heapWatch) check(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: heap in use %.1f MiB before, at most %.1f MiB during (+%.1f MiB)", what,
		float64(h.base)/(1<<20), float64(h.peak)/(1<<20), float64(h.peak-h.base)/(1<<20))
	require.Less(t, h.peak-h.base, uint64(32<<20), "%s: the heap grew by more than 32 MiB", what)
}

// A 1 GiB upload and a 1 GiB download stream: the heap stays small.
func TestLargeTransfersStream(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 2 GiB")
	}
	const size = 1 << 30
	env := newEnv(t, refserver.WithMaxFileSize(2*size))
	c := env.Client(t)
	ctx := context.Background()

	up := newHeapWatch()
	f, err := c.Files.Upload(ctx, files.UploadParams{Reader: &generator{left: size}, Filename: "big.bin", Size: size, Progress: up.at})
	require.NoError(t, err)
	require.Equal(t, int64(size), f.SizeBytes)
	up.check(t, "upload")

	// Unknown size: chunked (a quarter of the size, which shows as well).
	up = newHeapWatch()
	f, err = c.Files.Upload(ctx, files.UploadParams{Reader: onlyReader{&generator{left: size / 4}}, Filename: "big2.bin", Progress: up.at})
	require.NoError(t, err)
	require.Equal(t, int64(size/4), f.SizeBytes)
	up.check(t, "chunked upload")
	_, err = c.Files.Delete(ctx, f.ID)
	require.NoError(t, err)

	id := put(t, env, "big.bin", "", &generator{left: size})
	down := newHeapWatch()
	d, err := c.Files.Download(ctx, id)
	require.NoError(t, err)
	defer d.Close()
	require.Equal(t, int64(size), d.Size)
	buf := make([]byte, 64<<10)
	var n int64
	for {
		k, err := d.Read(buf)
		n += int64(k)
		down.at(n)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
	}
	require.Equal(t, int64(size), n)
	down.check(t, "download")
}
