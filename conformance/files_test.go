package conformance_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// closeFiles removes the stored bytes of an embedded target's files when
// the test ends.
func closeFiles(t *testing.T, tg *Target) {
	if tg.Reference() {
		t.Cleanup(func() { _ = tg.Ref.Server.Close() })
	}
}

// newFile uploads data as a file named after the test, deleted when the
// test ends.
func newFile(t *testing.T, tg *Target, data []byte, params files.UploadParams) *files.File {
	t.Helper()
	params.Reader = bytes.NewReader(data)
	if params.Filename == "" {
		params.Filename = name(t) + ".txt"
	}
	f, err := tg.Client.Files.Upload(tg.ctx(t), params)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	cleanup(t, "delete file "+f.ID, func(ctx context.Context) error {
		_, err := tg.Client.Files.Delete(ctx, f.ID)
		return err
	})
	return f
}

// TestFiles uploads a file, reads its metadata back, finds it in the list,
// is refused its download (uploads are not downloadable) and deletes it.
func TestFiles(t *testing.T) {
	tg := target(t)
	closeFiles(t, tg)
	ctx := tg.ctx(t)
	c := tg.Client

	data := []byte("conformance file\n")
	filename := name(t) + ".txt"
	f := newFile(t, tg, data, files.UploadParams{Filename: "dir/" + filename, MimeType: "text/plain", Size: int64(len(data)), ExpiresIn: 2 * time.Hour})
	if f.Type != "file" || !strings.HasPrefix(f.ID, "file_") || f.Filename != filename || f.SizeBytes != int64(len(data)) ||
		f.MimeType != "text/plain" || f.Downloadable || f.ExpiresAt.IsZero() {
		t.Fatalf("uploaded file: %+v", f)
	}
	got, err := c.Files.Get(ctx, f.ID)
	if err != nil || got.ID != f.ID || got.Filename != f.Filename || !got.CreatedAt.Equal(f.CreatedAt) {
		t.Fatalf("get file: %v, %+v", err, got)
	}
	page, err := c.Files.List(ctx, files.ListParams{IDs: []string{f.ID}})
	if err != nil || len(page.Data) != 1 || page.Data[0].ID != f.ID {
		t.Fatalf("list by id: %v, %+v", err, page)
	}
	found := false
	for x, err := range c.Files.All(ctx, files.ListParams{Limit: 50}) {
		if err != nil {
			t.Fatalf("list files: %v", err)
		}
		if x.ID == f.ID {
			found = true
			break
		}
	}
	if !found {
		t.Errorf("file %s is not listed", f.ID)
	}

	_, err = c.Files.Download(ctx, f.ID)
	wantStatus(t, err, 400)

	del, err := c.Files.Delete(ctx, f.ID)
	if err != nil || del.ID != f.ID || del.Type != "file_deleted" {
		t.Fatalf("delete: %v, %+v", err, del)
	}
	_, err = c.Files.Get(ctx, f.ID)
	wantStatus(t, err, 404)
}

// TestFilesRefused: an empty file and an expiry out of range are refused.
func TestFilesRefused(t *testing.T) {
	tg := target(t)
	closeFiles(t, tg)
	ctx := tg.ctx(t)
	_, err := tg.Client.Files.Upload(ctx, files.UploadParams{Reader: strings.NewReader(""), Filename: name(t) + ".txt"})
	if e := wantStatus(t, err, 400); !strings.Contains(e.Message, "file") {
		t.Errorf("empty file: %v", err)
	}
	_, err = tg.Client.Files.Upload(ctx, files.UploadParams{Reader: strings.NewReader("x"), ExpiresIn: time.Minute})
	if !errors.Is(err, apierror.ErrInvalidRequest) {
		t.Errorf("expiry of a minute: %v", err)
	}
}

// TestFilesRetriedUpload: an upload whose response is lost is sent again
// from the start of its Reader with the same Idempotency-Key, and one file
// is stored; a Reader that cannot seek back is not sent again.
func TestFilesRetriedUpload(t *testing.T) {
	tg := needsControl(t, "injects faults")
	closeFiles(t, tg)
	ctx := tg.ctx(t)
	tg.Ref.Server.InjectFault(refserver.Fault{Method: "POST", Path: "/v1/files", DropAfterHandling: true})
	data := bytes.Repeat([]byte("retry "), 50_000)
	f := newFile(t, tg, data, files.UploadParams{})
	if f.SizeBytes != int64(len(data)) {
		t.Fatalf("retried upload stored %d bytes, want %d", f.SizeBytes, len(data))
	}
	page, err := tg.Client.Files.List(ctx, files.ListParams{})
	if err != nil || len(page.Data) != 1 {
		t.Fatalf("want one file stored, got %v, %+v", err, page)
	}

	tg.Ref.Server.InjectFault(refserver.Fault{Method: "POST", Path: "/v1/files", DropAfterHandling: true})
	_, err = tg.Client.Files.Upload(ctx, files.UploadParams{Reader: io.MultiReader(strings.NewReader("once")), Filename: name(t)})
	if !errors.Is(err, files.ErrNotRewindable) {
		t.Fatalf("non-seekable Reader: want ErrNotRewindable, got %v", err)
	}
}

// TestFilesDownload downloads a file the platform wrote.
func TestFilesDownload(t *testing.T) {
	tg := needsControl(t, "writes a downloadable file, as only the platform can")
	closeFiles(t, tg)
	ctx := tg.ctx(t)
	content := strings.Repeat("result\n", 1000)
	id, err := tg.Ref.Server.PutFile(tg.WorkspaceID, name(t)+".txt", "text/plain", strings.NewReader(content))
	if err != nil {
		t.Fatal(err)
	}
	d, err := tg.Client.Files.Download(ctx, id)
	if err != nil {
		t.Fatalf("download: %v", err)
	}
	defer d.Close()
	got, err := io.ReadAll(d)
	if err != nil || string(got) != content || d.Size != int64(len(content)) || !strings.HasPrefix(d.ContentType, "text/plain") {
		t.Fatalf("download: %v, %d bytes, %+v", err, len(got), d)
	}
}
