package files_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
)

func TestFileLifecycle(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	ctx := context.Background()

	data := []byte("%PDF-1.7 a small report")
	f, err := c.Files.Upload(ctx, files.UploadParams{
		Reader: bytes.NewReader(data), Filename: "reports/q3.pdf", MimeType: "application/pdf",
		Size: int64(len(data)), ExpiresIn: 24 * time.Hour,
	})
	require.NoError(t, err)
	require.Equal(t, "file", f.Type)
	require.True(t, strings.HasPrefix(f.ID, "file_"), f.ID)
	require.Equal(t, "q3.pdf", f.Filename, "only the final path component is kept")
	require.Equal(t, "application/pdf", f.MimeType)
	require.Equal(t, int64(len(data)), f.SizeBytes)
	require.False(t, f.Downloadable, "uploads are not downloadable")
	require.Equal(t, f.CreatedAt.Add(24*time.Hour), f.ExpiresAt)
	require.Nil(t, f.Scope)

	got, err := c.Files.Get(ctx, f.ID)
	require.NoError(t, err)
	require.Equal(t, f, got)

	// Unknown size: sent chunked; the MIME type comes from the extension.
	g, err := c.Files.Upload(ctx, files.UploadParams{Reader: onlyReader{strings.NewReader("a,b\n1,2\n")}, Filename: "t.csv"})
	require.NoError(t, err)
	require.Equal(t, int64(8), g.SizeBytes)
	require.Equal(t, "text/csv", g.MimeType)
	require.True(t, g.ExpiresAt.IsZero())

	page, err := c.Files.List(ctx, files.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.Equal(t, g.ID, page.Data[0].ID, "newest first")
	require.False(t, page.HasMore())

	page, err = c.Files.List(ctx, files.ListParams{IDs: []string{f.ID}})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, f.ID, page.Data[0].ID)

	var ids []string
	for file, err := range c.Files.All(ctx, files.ListParams{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, file.ID)
	}
	require.Equal(t, []string{g.ID, f.ID}, ids, "one file per page")

	del, err := c.Files.Delete(ctx, f.ID)
	require.NoError(t, err)
	require.Equal(t, files.DeletedFile{ID: f.ID, Type: "file_deleted"}, *del)
	_, err = c.Files.Get(ctx, f.ID)
	require.ErrorIs(t, err, apierror.ErrNotFound)
	_, err = c.Files.Delete(ctx, f.ID)
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

func TestListScope(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	ctx := context.Background()
	upload(t, c, "mine.txt", []byte("mine"))
	const session = "sesn_011CZkZAtmR3yMPDzynEDxu7"
	id, err := env.Server.PutSessionFile(env.Seed.DefaultWorkspaceID, session, "out.txt", "", strings.NewReader("out"))
	require.NoError(t, err)

	page, err := c.Files.List(ctx, files.ListParams{ScopeID: session})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, id, page.Data[0].ID)
	require.Equal(t, &files.Scope{Type: "session", ID: session}, page.Data[0].Scope)
}

func TestDownload(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	ctx := context.Background()
	content := strings.Repeat("output line\n", 10000)
	id := put(t, env, "out/result.txt", "text/plain", strings.NewReader(content))

	f, err := c.Files.Get(ctx, id)
	require.NoError(t, err)
	require.True(t, f.Downloadable)

	d, err := c.Files.Download(ctx, id)
	require.NoError(t, err)
	require.Equal(t, int64(len(content)), d.Size)
	require.Equal(t, "result.txt", d.Filename)
	require.True(t, strings.HasPrefix(d.ContentType, "text/plain"), d.ContentType)
	got, err := io.ReadAll(d)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	require.Equal(t, content, string(got))

	// An upload is not downloadable.
	up := upload(t, c, "in.txt", []byte("in"))
	_, err = c.Files.Download(ctx, up.ID)
	reftest.RequireInvalid(t, err, "is not downloadable")

	// The JSON response limit does not apply to a download.
	small := env.Client(t, option.WithMaxResponseSize(1024))
	d, err = small.Files.Download(ctx, id)
	require.NoError(t, err)
	n, err := io.Copy(io.Discard, d)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	require.Equal(t, int64(len(content)), n)
}

// A retried upload of a seekable Reader sends the file again from where
// it started, with the same Idempotency-Key: one file is stored.
func TestUploadRetrySeekable(t *testing.T) {
	for _, fault := range []refserver.Fault{
		{Method: "POST", Path: "/v1/files", Status: 503},
		{Method: "POST", Path: "/v1/files", DropAfterHandling: true},
	} {
		env := newEnv(t)
		c := env.Client(t)
		env.Server.InjectFault(fault)
		data := bytes.Repeat([]byte("0123456789"), 100_000)
		r := bytes.NewReader(append([]byte("skipped"), data...))
		_, _ = r.Seek(int64(len("skipped")), io.SeekStart) // the upload starts where the Reader is
		f, err := c.Files.Upload(context.Background(), files.UploadParams{Reader: r, Filename: "big.txt"})
		require.NoError(t, err)
		require.Equal(t, int64(len(data)), f.SizeBytes)
		require.Equal(t, 2, env.Count("POST", "/v1/files"), "retried once")
		page, err := c.Files.List(context.Background(), files.ListParams{})
		require.NoError(t, err)
		require.Len(t, page.Data, 1, "one file stored")
	}
}

// A Reader that cannot seek is not sent twice: the failure of the attempt
// that read it is returned, typed, instead of a retry.
func TestUploadNotRewindable(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	upload(t, c, "first.txt", []byte("first")) // the next call reuses the connection, which net/http would retry on
	env.Server.InjectFault(refserver.Fault{Method: "POST", Path: "/v1/files", DropAfterHandling: true})
	_, err := c.Files.Upload(context.Background(), files.UploadParams{Reader: onlyReader{strings.NewReader("once only")}, Filename: "a.txt"})
	require.ErrorIs(t, err, files.ErrNotRewindable)
	require.Equal(t, 2, env.Count("POST", "/v1/files"), "not retried")

	// A 5xx answer is wrapped too, and stays an API error.
	env.Server.InjectFault(refserver.Fault{Method: "POST", Path: "/v1/files", Status: 500, DropAfterHandling: false})
	_, err = c.Files.Upload(context.Background(), files.UploadParams{Reader: onlyReader{&generator{left: 4 << 20}}, Filename: "b.txt"})
	if errors.Is(err, files.ErrNotRewindable) { // the answer came after bytes went out
		var apiErr *apierror.Error
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, 500, apiErr.StatusCode)
	} else { // nothing had been read yet: retried, and stored
		require.NoError(t, err)
	}
}

func TestUploadProgress(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	const size = 3<<20 + 17
	var calls int
	var last int64
	f, err := c.Files.Upload(context.Background(), files.UploadParams{
		Reader: &generator{left: size}, Filename: "gen.bin", Size: size,
		Progress: func(sent int64) {
			require.Greater(t, sent, last, "progress only grows")
			last = sent
			calls++
		},
	})
	require.NoError(t, err)
	require.Equal(t, int64(size), f.SizeBytes)
	require.Equal(t, int64(size), last)
	require.Greater(t, calls, 1)
}

// A Size that the Reader does not match fails the call, without retries.
func TestUploadWrongSize(t *testing.T) {
	env := newEnv(t)
	c := env.Client(t)
	for _, size := range []int64{5, 100} {
		_, err := c.Files.Upload(context.Background(), files.UploadParams{Reader: strings.NewReader("0123456789"), Size: size})
		var verr *apierror.ValidationError
		require.ErrorAs(t, err, &verr, "size %d", size)
		require.Equal(t, "Size", verr.Field)
	}
	require.LessOrEqual(t, env.Count("POST", "/v1/files"), 2, "one attempt each, never retried")
}
