package files

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/form"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
)

// ErrNotRewindable is the error of an upload whose attempt failed after
// some of its bytes had been read, when its Reader cannot seek back to
// send them again: the call is not retried. The error wraps the attempt's
// own (an *apierror.Error, a transport error), so errors.Is and errors.As
// find both. Give an io.ReadSeeker (an *os.File) to have such uploads
// retried.
var ErrNotRewindable = errors.New("files: the upload failed after its Reader was partly read, and the Reader cannot seek back to send it again")

// UploadParams is what Upload sends.
type UploadParams struct {
	// Reader gives the file's bytes (required). It is read as the request
	// goes out, never all at once; an io.Seeker is seeked back to where it
	// started when an attempt must be sent again.
	Reader io.Reader
	// Filename names the file (optional): only its final path component
	// is kept; none gives "unnamed".
	Filename string
	// MimeType is the file's media type (optional); without it the API
	// infers one from Filename's extension.
	MimeType string
	// Size is the Reader's length in bytes when known, sent as the
	// request's Content-Length; 0 or -1 when unknown, and the request is
	// then sent chunked. A Reader that gives another number of bytes fails
	// the call.
	Size int64
	// ExpiresIn has the API delete the file that long after the upload, a
	// whole number of seconds from 1 hour to 90 days; 0 keeps it until it
	// is deleted.
	ExpiresIn time.Duration
	// Progress, when set, is called on the uploading goroutine of the
	// transport with the number of the file's bytes sent so far, as they
	// are read to go out. A retried upload starts again from 0.
	Progress func(sent int64)
}

const (
	minExpiry = time.Hour
	maxExpiry = 90 * 24 * time.Hour
)

func (p *UploadParams) check() error {
	if p.Reader == nil {
		return &apierror.ValidationError{Field: "Reader", Rule: "is required"}
	}
	if strings.ContainsFunc(p.Filename, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return &apierror.ValidationError{Field: "filename", Rule: "must not contain control characters"}
	}
	if p.MimeType != "" {
		if _, _, err := mime.ParseMediaType(p.MimeType); err != nil || strings.ContainsAny(p.MimeType, "\r\n") {
			return &apierror.ValidationError{Field: "mime_type", Rule: "must be a media type such as application/pdf"}
		}
	}
	if p.Size < -1 {
		return &apierror.ValidationError{Field: "Size", Rule: "must be the Reader's length in bytes, or 0 or -1 when unknown"}
	}
	if e := p.ExpiresIn; e != 0 && (e < minExpiry || e > maxExpiry || e%time.Second != 0) {
		return &apierror.ValidationError{Field: "expires_in_seconds", Rule: "must be a whole number of seconds between 3600 and 7776000 (1 hour to 90 days)"}
	}
	return nil
}

// body is an upload's multipart/form-data request body: the form's fixed
// bytes (internal/form) around the Reader's, which each attempt streams.
type body struct {
	form     *form.Layout
	size     int64 // the Reader's declared length; 0 when unknown
	progress func(int64)

	// mu orders the attempts' reads of the Reader with Rewind: a transport
	// may still be reading an attempt's body after its response arrived,
	// and once Rewind has run (gen moved on), that stale body reads nothing
	// more from the Reader.
	mu     sync.Mutex
	r      io.Reader
	seeker io.Seeker
	start  int64 // the Seeker's offset when the upload began
	gen    int   // the attempt whose body may read the Reader
	sent   int64 // the Reader's bytes read by attempt gen
	err    error // the Reader failed, or gave another length than size: final
}

func newBody(p *UploadParams) (*body, error) {
	b := &body{r: p.Reader, progress: p.Progress}
	if p.Size > 0 {
		b.size = p.Size
	}
	if s, ok := p.Reader.(io.Seeker); ok {
		start, err := s.Seek(0, io.SeekCurrent)
		if err == nil { // a Seeker that cannot tell where it is (a pipe's *os.File) is not one
			b.seeker, b.start = s, start
		}
	}
	var fields []form.Field
	if p.ExpiresIn != 0 {
		fields = append(fields, form.Field{Name: "expires_in_seconds", Value: strconv.FormatInt(int64(p.ExpiresIn/time.Second), 10)})
	}
	size := b.size
	if size == 0 {
		size = -1
	}
	var err error
	b.form, err = form.New(fields, []form.File{{Field: "file", Filename: p.Filename, ContentType: p.MimeType, Size: size}})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// upload is the pipeline's description of the body.
func (b *body) upload() *pipeline.Upload {
	return &pipeline.Upload{ContentType: b.form.ContentType, Size: b.form.Size, Open: b.open, Rewind: b.rewind}
}

// open returns the body of the current attempt; it reads nothing yet.
func (b *body) open() io.Reader {
	b.mu.Lock()
	gen := b.gen
	b.mu.Unlock()
	return b.form.Reader(&fileReader{b: b, gen: gen})
}

// errStale is what an attempt's body reads once a later attempt replaced it.
var errStale = errors.New("files: this attempt's body was replaced by a retry's")

// fileReader is one attempt's reading of the Reader.
type fileReader struct {
	b   *body
	gen int
}

func (f *fileReader) Read(p []byte) (int, error) {
	b := f.b
	b.mu.Lock()
	n, err := f.read(p)
	sent := b.sent
	b.mu.Unlock()
	if n > 0 && (err == nil || err == io.EOF) && b.progress != nil {
		b.progress(sent) // outside the lock: the application's code
	}
	return n, err
}

// read reads the Reader for the attempt, under b.mu.
func (f *fileReader) read(p []byte) (int, error) {
	b := f.b
	switch {
	case f.gen != b.gen:
		return 0, errStale
	case b.err != nil:
		return 0, b.err
	}
	if b.size > 0 && int64(len(p)) > b.size-b.sent+1 {
		p = p[:b.size-b.sent+1] // one byte past Size tells a longer Reader
	}
	n, err := b.r.Read(p)
	b.sent += int64(n)
	switch {
	case b.size > 0 && b.sent > b.size:
		b.err = &apierror.ValidationError{Field: "Size", Rule: "is " + strconv.FormatInt(b.size, 10) + " but the Reader gave more bytes"}
		return 0, b.err
	case errors.Is(err, io.EOF) && b.size > 0 && b.sent < b.size:
		b.err = &apierror.ValidationError{Field: "Size", Rule: "is " + strconv.FormatInt(b.size, 10) + " but the Reader gave " + strconv.FormatInt(b.sent, 10) + " bytes"}
		return n, b.err
	case err != nil && !errors.Is(err, io.EOF):
		b.err = fmt.Errorf("files: reading the upload: %w", err)
		return n, b.err
	}
	return n, err
}

// rewind readies the body for another attempt after one that failed with
// cause; see pipeline.Upload.Rewind.
func (b *body) rewind(cause error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.gen++
	switch {
	case b.err != nil:
		return b.err
	case b.sent == 0:
		return nil // nothing was read: the next attempt starts where this one did
	case b.seeker == nil:
		return fmt.Errorf("%w: %w", ErrNotRewindable, cause)
	}
	if _, err := b.seeker.Seek(b.start, io.SeekStart); err != nil {
		return fmt.Errorf("%w: seeking back: %w; the attempt failed with: %w", ErrNotRewindable, err, cause)
	}
	b.sent = 0
	return nil
}

// bytesSent is the Reader's bytes the last attempt read.
func (b *body) bytesSent() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent
}
