package files_test

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/config"
	"github.com/agentplatform/agentplatform-go/option"
)

// BenchmarkUpload64MiB compares an SDK upload with a plain net/http one
// that streams the same multipart body through an io.Pipe, against the
// same reference server:
//
//	go test -run '^$' -bench Upload -benchmem -count 6 ./files/ | benchstat -col /impl -
func BenchmarkUpload64MiB(b *testing.B) {
	const size = 64 << 20
	env := newEnv(b)
	ctx := context.Background()
	b.Run("impl=SDK", func(b *testing.B) {
		c := env.Client(b, option.WithMaxRetries(0))
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			f, err := c.Files.Upload(ctx, files.UploadParams{Reader: &generator{left: size}, Filename: "bench.bin", Size: size})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := c.Files.Delete(ctx, f.ID); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
	b.Run("impl=Raw", func(b *testing.B) {
		c := env.Client(b, option.WithMaxRetries(0))
		hc := &http.Client{}
		b.Cleanup(hc.CloseIdleConnections)
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			pr, pw := io.Pipe()
			mw := multipart.NewWriter(pw)
			go func() {
				part, err := mw.CreateFormFile("file", "bench.bin")
				if err == nil {
					_, err = io.Copy(part, &generator{left: size})
				}
				if err == nil {
					err = mw.Close()
				}
				pw.CloseWithError(err)
			}()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.URL+"/v1/files", pr)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+env.Seed.APIKey)
			req.Header.Set("Vendor-Version", config.DefaultVersion)
			req.Header.Set("Vendor-Workspace-Id", env.Seed.DefaultWorkspaceID)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var f files.File
			data, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("%d %s %v", resp.StatusCode, data, err)
			}
			if err := f.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := c.Files.Delete(ctx, f.ID); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
}
