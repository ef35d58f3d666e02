package files

import (
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Upload (docs/files-wire.md 1 and 3). The route is a kit.Route with
// RawBody: the pipeline authenticates the request and leaves the body
// unread, and the handler reads the multipart form as a stream. The file
// part goes to a temporary file in the family's directory, hashed and
// counted as it is copied, so no part of it is held in memory and a body
// past the limit is refused as soon as the limit is passed.

// Expiry bounds: an hour to 90 days.
const (
	minExpiresIn = 3600
	maxExpiresIn = 7776000
)

// maxFieldBytes bounds what is read of the expires_in_seconds part: more
// than any integer in range needs.
const maxFieldBytes = 32

var (
	errNotMultipart = kit.InvalidRequest("request body: must be multipart/form-data")
	errExpiresIn    = kit.InvalidField("expires_in_seconds", "must be between %d and %d", minExpiresIn, maxExpiresIn)
)

// received is what the form carried, as it is read.
type received struct {
	file        bool // a file part was read
	rawName     string
	contentType string
	tmp         string // the temporary file; "" once kept or removed
	size        int64
	sum         [32]byte

	expires    bool // an expires_in_seconds part was read
	rawExpires string
	expiresIn  int64
}

// discard removes the temporary file unless it was kept.
func (r *received) discard() {
	if r.tmp != "" {
		_ = os.Remove(r.tmp)
		r.tmp = ""
	}
}

// digest identifies the request for Idempotency-Key: what the form says,
// not how it is framed (a retry may use another boundary).
func (r *received) digest() [32]byte {
	h := sha256.New()
	for _, part := range []string{r.rawName, r.contentType, string(r.sum[:]), r.rawExpires} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func (s *Service) upload(c *kit.Call) error {
	mt, params, err := mime.ParseMediaType(c.R.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return errNotMultipart
	}
	var body io.Reader = c.R.Body
	if s.cfg.readTimeout > 0 {
		rc := http.NewResponseController(c.W)
		body = &deadlineReader{r: body, rc: rc, idle: s.cfg.readTimeout}
		// net/http sets a connection's read deadline for each request only
		// when its server has read timeouts; without them the deadline set
		// here would outlive the request on a kept-alive connection.
		defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	}
	var in received
	defer in.discard()
	if err := s.readForm(multipart.NewReader(body, params["boundary"]), &in); err != nil {
		return err
	}
	c.Ex.SetBodyRead()
	if !in.file {
		return kit.InvalidField("file", "is required")
	}
	if in.size == 0 {
		return kit.InvalidField("file", "must not be empty")
	}
	replayed, err := c.ClaimIdempotency(in.digest())
	if err != nil || replayed {
		return err // a replay stores nothing: in.discard removes the bytes
	}
	now := c.Now()
	mimeType := mimeTypeOf(in.contentType, in.rawName)
	f := &file{
		workspaceID: c.WorkspaceID,
		filename:    fileNameOf(in.rawName, mimeType),
		mimeType:    mimeType,
		size:        in.size,
		sha256:      in.sum,
		createdAt:   now,
		path:        in.tmp,
	}
	if in.expires {
		f.expiresAt = now.Add(time.Duration(in.expiresIn) * time.Second)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.insertLocked(f)
	in.tmp = "" // kept
	return c.OK(f.view())
}

// readForm reads every part of the form into in, refusing what the rules
// of docs/files-wire.md 3 refuse as soon as it is seen.
func (s *Service) readForm(mr *multipart.Reader, in *received) error {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return errNotMultipart
		}
		err = s.readPart(part, in)
		_ = part.Close()
		if err != nil {
			return err
		}
	}
}

func (s *Service) readPart(part *multipart.Part, in *received) error {
	switch name := part.FormName(); name {
	case "file":
		if in.file {
			return kit.InvalidField("file", "must appear once")
		}
		in.file = true
		return s.receiveFile(part, in)
	case "expires_in_seconds":
		if in.expires {
			return kit.InvalidField(name, "must appear once")
		}
		in.expires = true
		raw, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil {
			return errNotMultipart
		}
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || len(raw) > maxFieldBytes || n < minExpiresIn || n > maxExpiresIn {
			return errExpiresIn
		}
		in.rawExpires, in.expiresIn = string(raw), n
		return nil
	case "":
		return kit.InvalidRequest("request body: every part must have a name")
	default:
		return kit.InvalidField(name, "unknown field")
	}
}

// receiveFile copies the file part to a temporary file, hashing and
// counting it; one byte past the limit is a 413.
func (s *Service) receiveFile(part *multipart.Part, in *received) error {
	// The raw filename parameter: Part.FileName applies filepath.Base,
	// which knows only the machine's separator.
	if _, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil {
		in.rawName = params["filename"]
	}
	in.contentType = part.Header.Get("Content-Type")
	tmp, err := s.createTemp()
	if err != nil {
		return err
	}
	in.tmp = tmp.Name()
	h := sha256.New()
	n, err := io.Copy(hashingWriter{tmp, h}, io.LimitReader(part, s.cfg.maxFileSize+1))
	if cerr := tmp.Close(); err == nil && cerr != nil {
		return cerr
	}
	var writeErr *writeError
	switch {
	case errors.As(err, &writeErr):
		return writeErr.err // the disk, not the client: a 500
	case err != nil:
		return errNotMultipart // the body broke off or is malformed
	case n > s.cfg.maxFileSize:
		return kit.NewAPIError(http.StatusRequestEntityTooLarge, kit.ErrRequestTooLarge,
			"file: must be at most %d bytes", s.cfg.maxFileSize)
	}
	in.size = n
	h.Sum(in.sum[:0])
	return nil
}

// hashingWriter writes to the file and the hash, and marks the file's
// errors so that they are not taken for the client's.
type hashingWriter struct {
	f *os.File
	h hash.Hash
}

type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

func (w hashingWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	if err != nil {
		return n, &writeError{err}
	}
	return n, nil
}

// deadlineReader moves the connection's read deadline on while the body
// arrives, so that only a body that stops arriving for idle times out.
type deadlineReader struct {
	r    io.Reader
	rc   *http.ResponseController
	idle time.Duration
	next time.Time // when to move the deadline again
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if now := time.Now(); now.After(d.next) {
		_ = d.rc.SetReadDeadline(now.Add(d.idle))
		d.next = now.Add(d.idle / 4)
	}
	return d.r.Read(p)
}
