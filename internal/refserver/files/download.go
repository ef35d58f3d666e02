package files

import (
	"io"
	"net/http"
	"os"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// download streams a downloadable file's bytes from disk (docs/files-wire.md
// 1): the response is committed with its headers and then copied straight
// to the connection, never buffered.
func (s *Service) download(c *kit.Call) error {
	fh, f, err := s.openLocked(c)
	if err != nil {
		return err
	}
	defer fh.Close()
	h := c.W.Header()
	h.Set("Content-Type", f.mimeType)
	h.Set("Content-Length", strconv.FormatInt(f.size, 10))
	h.Set("Content-Disposition", contentDisposition(f.filename))
	c.W.WriteHeader(http.StatusOK)
	c.Ex.RB.Commit()
	if c.R.Method == http.MethodHead {
		return nil
	}
	// A client that goes away ends the copy; the status is sent already,
	// so there is nothing to answer.
	_, _ = io.Copy(connection(c.W), fh)
	return nil
}

// connection is the writer under the pipeline's response buffer, once it is
// committed: writing to it directly lets io.Copy use the connection's
// ReaderFrom (sendfile) instead of a 32 KiB buffer.
func connection(w http.ResponseWriter) io.Writer {
	if u, ok := w.(interface{ Unwrap() http.ResponseWriter }); ok {
		return u.Unwrap()
	}
	return w
}

// openLocked finds the file and opens its bytes under the lock, so that a
// delete cannot remove them in between; the copy runs without it.
func (s *Service) openLocked(c *kit.Call) (*os.File, file, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.fileLocked(c.WorkspaceID, c.R.PathValue("file_id"), c.Now())
	if err != nil {
		return nil, file{}, err
	}
	if !f.downloadable {
		return nil, file{}, kit.InvalidField("file_id", "file `%s` is not downloadable", f.id)
	}
	fh, err := os.Open(f.path)
	if err != nil {
		return nil, file{}, err
	}
	return fh, *f, nil
}
