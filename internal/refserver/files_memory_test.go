package refserver_test

import (
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// patternReader produces n bytes without holding them: an upload of any
// size costs the test no memory.
type patternReader struct{ left int64 }

func (r *patternReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.left))
	for i := range n {
		p[i] = byte('a' + i%26)
	}
	r.left -= int64(n)
	return n, nil
}

// streamUpload posts n bytes as the file part, written through a pipe as
// the request goes out.
func streamUpload(t *testing.T, e *env, n int64) *http.Response {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", "big.bin")
		if err == nil {
			_, err = io.Copy(part, &patternReader{left: n})
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequest(http.MethodPost, e.url+filesPath, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A 50 MiB upload goes to disk as it arrives: the process's heap never
// grows by more than a fraction of it. HeapInuse is sampled while the
// upload runs (a body read whole would show at its peak, and be garbage
// by the end).
func TestFileUploadKeepsHeapSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MiB upload")
	}
	e := newEnv(t, refserver.WithFileDir(t.TempDir()))
	const size = 50 << 20
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse

	done := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			peak = max(peak, s.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	res := streamUpload(t, e, size)
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	close(done)
	wg.Wait()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	growth := int64(peak) - int64(base)
	t.Logf("HeapInuse growth during a %d MiB upload: %.1f MiB", size>>20, float64(growth)/(1<<20))
	if growth > 16<<20 {
		t.Fatalf("HeapInuse grew by %.1f MiB during a %d MiB upload", float64(growth)/(1<<20), size>>20)
	}
}

// Close removes the directory the server made for its files; WithFileDir's
// directory is the caller's, and only the files go.
func TestFileDirRemovedByClose(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e := newEnv(t)
	e.uploadFile(t, "a.txt", "", "hello")
	entries, err := os.ReadDir(tmp)
	if err != nil || len(entries) != 1 {
		t.Fatalf("temp dir holds %v (%v), want the server's directory", entries, err)
	}
	must(t, e.srv.Close())
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}

	dir := t.TempDir()
	e2 := newEnv(t, refserver.WithFileDir(dir))
	e2.uploadFile(t, "a.txt", "", "hello")
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("file dir holds %v", entries)
	}
	must(t, e2.srv.Close())
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the caller's directory went: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}

// Start's stop closes the server.
func TestStartStopRemovesFiles(t *testing.T) {
	dir := t.TempDir()
	srv := refserver.New(refserver.WithFileDir(dir))
	url, stop, err := srv.Start("127.0.0.1:0")
	must(t, err)
	e := &env{srv: srv, url: url, seed: srv.Seed()}
	e.uploadFile(t, "a.txt", "", "hello")
	must(t, stop())
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}
