package files_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
)

// newEnv starts a reference server whose stored files are removed when
// the test ends.
func newEnv(t testing.TB, opts ...refserver.Option) *reftest.Env {
	t.Helper()
	env := reftest.New(t, append([]refserver.Option{refserver.WithFileDir(t.TempDir())}, opts...)...)
	t.Cleanup(func() { _ = env.Server.Close() })
	return env
}

// put stores a downloadable file in the default workspace, as the
// platform would.
func put(t testing.TB, env *reftest.Env, name, mimeType string, r io.Reader) string {
	t.Helper()
	id, err := env.Server.PutFile(env.Seed.DefaultWorkspaceID, name, mimeType, r)
	require.NoError(t, err)
	return id
}

func upload(t testing.TB, c *agentplatform.Client, name string, data []byte, opts ...option.Option) *files.File {
	t.Helper()
	f, err := c.Files.Upload(context.Background(), files.UploadParams{Reader: bytes.NewReader(data), Filename: name}, opts...)
	require.NoError(t, err)
	return f
}

// generator gives n bytes of a repeating pattern without holding them.
type generator struct{ left int64 }

func (g *generator) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	for i := range p {
		p[i] = byte('a' + i%26)
	}
	g.left -= int64(len(p))
	return len(p), nil
}

// onlyReader hides every method of r but Read: a Reader that cannot seek.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }
