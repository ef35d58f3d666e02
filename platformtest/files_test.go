package platformtest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/platformtest"
)

// PutFile makes a downloadable file of the server's workspace: its content
// endpoint answers the bytes with the stored name and type.
func TestPutFileIsDownloadable(t *testing.T) {
	srv, _ := platformtest.New(t)
	id, err := srv.PutFile("out.csv", "", strings.NewReader("a,b\n1,2\n"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(id, "file_"), id)

	req, err := http.NewRequest(http.MethodGet, srv.URL()+"/v1/files/"+id+"/content", nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", srv.APIKey())
	req.Header.Set("vendor-workspace-id", srv.WorkspaceID())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "a,b\n1,2\n", string(body))
	require.Equal(t, "text/csv", res.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename="out.csv"`, res.Header.Get("Content-Disposition"))
}

// WithMaxFileSize moves the upload limit: one byte past it is a 413.
func TestWithMaxFileSize(t *testing.T) {
	srv, _ := platformtest.New(t, platformtest.WithMaxFileSize(4))
	upload := func(content string) int {
		body := "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.txt\"\r\n\r\n" + content + "\r\n--b--\r\n"
		req, err := http.NewRequest(http.MethodPost, srv.URL()+"/v1/files", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("x-api-key", srv.APIKey())
		req.Header.Set("vendor-workspace-id", srv.WorkspaceID())
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, http.StatusOK, upload("1234"))
	require.Equal(t, http.StatusRequestEntityTooLarge, upload("12345"))
}
