package files_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
)

// The Files spans (docs/files-wire.md, "Spans"): their names, the file's
// id, and the bytes an upload sent or a download read; content mode
// records no file bytes or names.
func TestSpans(t *testing.T) {
	env := newEnv(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c := env.Client(t, option.WithTracerProvider(tp), option.WithContentCapture(true))
	ctx := context.Background()

	data := bytes.Repeat([]byte("x"), 100_000)
	f, err := c.Files.Upload(ctx, files.UploadParams{Reader: bytes.NewReader(data), Filename: "secret-name.txt"})
	require.NoError(t, err)
	s := spantest.One(t, rec, "vendor.files.upload")
	require.Equal(t, codes.Ok, s.Status().Code)
	a := spantest.Attrs(s)
	require.Equal(t, int64(len(data)), a[attr.HTTPRequestBodySize].AsInt64())
	require.Equal(t, f.ID, a[attr.FileID].AsString())

	_, err = c.Files.Get(ctx, f.ID)
	require.NoError(t, err)
	require.Equal(t, f.ID, spantest.Attrs(spantest.One(t, rec, "vendor.files.retrieve"))[attr.FileID].AsString())
	_, err = c.Files.List(ctx, files.ListParams{})
	require.NoError(t, err)
	spantest.One(t, rec, "vendor.files.list")

	id := put(t, env, "out.txt", "text/plain", strings.NewReader(strings.Repeat("y", 5000)))
	d, err := c.Files.Download(ctx, id)
	require.NoError(t, err)
	require.Empty(t, spantest.Named(rec, "vendor.files.download"), "the span lasts until the body is closed")
	_, err = io.Copy(io.Discard, d)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	s = spantest.One(t, rec, "vendor.files.download")
	require.Equal(t, codes.Ok, s.Status().Code)
	a = spantest.Attrs(s)
	require.Equal(t, int64(5000), a[attr.HTTPResponseBodySize].AsInt64())
	require.Equal(t, id, a[attr.FileID].AsString())

	_, err = c.Files.Delete(ctx, f.ID)
	require.NoError(t, err)
	spantest.One(t, rec, "vendor.files.delete")

	for _, s := range rec.Ended() {
		for _, kv := range s.Attributes() {
			v := kv.Value.String()
			require.NotContains(t, v, "secret-name", "%s: %s", s.Name(), kv.Key)
			require.NotContains(t, v, "xxxxxxxx", "%s: %s", s.Name(), kv.Key)
		}
	}
}

// A download closed before its end leaves the span unset, with the bytes
// read so far.
func TestDownloadClosedEarly(t *testing.T) {
	env := newEnv(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c := env.Client(t, option.WithTracerProvider(tp))
	id := put(t, env, "big.bin", "", &generator{left: 1 << 20})
	d, err := c.Files.Download(context.Background(), id)
	require.NoError(t, err)
	buf := make([]byte, 1000)
	_, err = io.ReadFull(d, buf)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	s := spantest.One(t, rec, "vendor.files.download")
	require.Equal(t, codes.Unset, s.Status().Code)
	require.Equal(t, int64(1000), spantest.Attrs(s)[attr.HTTPResponseBodySize].AsInt64())
}
