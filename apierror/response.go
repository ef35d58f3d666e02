package apierror

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sentinels of *ResponseError, for errors.Is.
var (
	// ErrMalformedResponse matches a successful response whose body is not
	// the JSON the call returns: not JSON at all, empty, null, or of the
	// wrong shape.
	ErrMalformedResponse = errors.New("agentplatform: malformed response body")
	// ErrResponseTooLarge matches a successful response whose body is
	// larger than the client accepts (option.WithMaxResponseSize).
	ErrResponseTooLarge = errors.New("agentplatform: response body too large")
)

// ResponseError is a successful (2xx) response the SDK could not use: its
// body does not decode into the call's result (errors.Is(err,
// ErrMalformedResponse)), or it is larger than the limit the client
// accepts (errors.Is(err, ErrResponseTooLarge)). Neither is retried: the
// server answered, and asking again would most likely get the same answer.
//
// Its Error string names the call, the status, the request id and why; it
// never quotes the body or any header.
type ResponseError struct {
	Method     string // method of the call
	Path       string // URL path of the call
	StatusCode int    // HTTP status of the response
	RequestID  string // the request-id response header, for support

	// Limit is the size limit the body went past; 0 when the body was read
	// in full but did not decode.
	Limit int64
	// Excerpt is the start of the body (at most 256 bytes, valid UTF-8),
	// to see what came back. It is response data: log it with the care
	// the call's results get. Empty for a body over the limit.
	Excerpt string
	// Err is why the body did not decode (a *json.SyntaxError, a
	// *json.UnmarshalTypeError...); nil for a body over the limit.
	Err error
}

// maxExcerpt bounds ResponseError.Excerpt.
const maxExcerpt = 256

func (e *ResponseError) Error() string {
	var b strings.Builder
	b.WriteString("agentplatform: ")
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	if e.Limit > 0 {
		b.WriteString(" response body is larger than the limit of ")
		b.WriteString(strconv.FormatInt(e.Limit, 10))
		b.WriteString(" bytes (option.WithMaxResponseSize)")
	} else {
		b.WriteString(" response body does not decode")
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(clip(e.Err.Error()))
		}
	}
	if e.RequestID != "" {
		b.WriteString(" (request_id ")
		b.WriteString(clip(e.RequestID))
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the decoding error.
func (e *ResponseError) Unwrap() error { return e.Err }

// Is matches ErrResponseTooLarge for a body over the limit, else
// ErrMalformedResponse.
func (e *ResponseError) Is(target error) bool {
	if e.Limit > 0 {
		return target == ErrResponseTooLarge
	}
	return target == ErrMalformedResponse
}

// MalformedResponse builds the error for a successful response whose body
// (read in full) did not decode, because of cause.
func MalformedResponse(method, path string, status int, header http.Header, body []byte, cause error) *ResponseError {
	return &ResponseError{Method: method, Path: path, StatusCode: status, RequestID: header.Get("request-id"),
		Excerpt: excerpt(body), Err: cause}
}

// ResponseTooLarge builds the error for a successful response whose body
// went past limit bytes. Nothing of the body is kept.
func ResponseTooLarge(method, path string, status int, header http.Header, limit int64) *ResponseError {
	return &ResponseError{Method: method, Path: path, StatusCode: status, RequestID: header.Get("request-id"), Limit: limit}
}

// excerpt is the start of body, at most maxExcerpt bytes of valid UTF-8:
// invalid bytes are replaced first (which can lengthen the text), then the
// text is cut at a rune boundary.
func excerpt(body []byte) string {
	if len(body) > maxExcerpt {
		body = body[:maxExcerpt]
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if len(s) > maxExcerpt {
		n := maxExcerpt
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return s
}
