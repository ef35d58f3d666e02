package pipeline

import (
	"errors"
	"io"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

// Upload is a request body (Request.Body) streamed from its source, such
// as a file being uploaded: each attempt reads it afresh through Open, so
// that the body is never held in memory, whatever its size.
type Upload struct {
	// ContentType is the body's Content-Type, e.g. a multipart/form-data
	// value with its boundary.
	ContentType string
	// Size is the body's exact length in bytes, sent as Content-Length;
	// 0 or less when unknown, and the body is then sent chunked.
	Size int64
	// Open returns the body of an attempt. It may be called more than once
	// per attempt (go-retryablehttp opens the body once when the request is
	// built, and net/http may ask for it again), so it must not read the
	// source: only the returned reader does, when the transport reads it.
	Open func() io.Reader
	// Rewind runs before the call sends its body again (a retry, or the
	// resend after a refused token), after the attempt that failed with
	// cause. It makes the next Open start the body from its beginning, or
	// returns the error that ends the call instead: a source that cannot
	// go back, or one that failed itself.
	Rewind func(cause error) error
}

// reader is the go-retryablehttp body function of an upload.
func (u *Upload) reader() (io.Reader, error) { return u.Open(), nil }

// rewindError ends a call whose upload could not be sent again; the
// pipeline returns the error inside as the call's error.
type rewindError struct{ err error }

func (e *rewindError) Error() string { return e.err.Error() }
func (e *rewindError) Unwrap() error { return e.err }

// rewind prepares c's upload, if it has one, for another attempt that
// follows one that failed with err, or that answered resp.
func (c *call) rewind(resp *http.Response, err error) error {
	u, ok := c.req.Body.(*Upload)
	if !ok {
		return nil
	}
	cause := err
	if cause == nil && resp != nil {
		var body []byte
		if b, ok := resp.Body.(*bufferedBody); ok {
			body = b.bytes()
		}
		cause = apierr.FromResponse(c.req.Method, c.req.Path, resp.StatusCode, resp.Header, body)
	}
	if cause == nil {
		cause = errors.New("the attempt failed")
	}
	if rerr := u.Rewind(cause); rerr != nil {
		return &rewindError{rerr}
	}
	return nil
}
