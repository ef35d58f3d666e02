package apierror

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinels for calls the SDK refuses to send, for errors.Is. Each message
// says how to fix the call.
var (
	// ErrNoCredentials: the client has no credentials to send.
	ErrNoCredentials = errors.New("agentplatform: no credentials: set VENDOR_API_KEY, " +
		"or pass option.WithAPIKey or option.WithCredentials")
	// ErrInsecureHTTP: credentials would go over plain HTTP to a host that
	// is not loopback, from the base URL or from a redirect
	// (*RedirectError).
	ErrInsecureHTTP = errors.New("agentplatform: refusing to send credentials over plain HTTP " +
		"to a host that is not loopback; use https, or option.WithInsecureHTTP")
	// ErrRedirectBody: a 307 or 308 redirect would re-send the request body
	// to another origin (*RedirectError). The body can hold secrets, such
	// as a repository's authorization token, so the SDK sends it only
	// where the call was addressed.
	ErrRedirectBody = errors.New("agentplatform: refusing to re-send a request body to another origin; " +
		"point the client at the final URL (option.WithBaseURL)")
)

// RedirectError is a redirect the SDK refused to follow. Nothing was sent
// to the redirect's target. Err says why, and errors.Is matches it:
// ErrInsecureHTTP or ErrRedirectBody.
//
// Redirects the SDK follows to another origin (scheme, host or port) lose
// every credential header on the way; see option.WithHTTPClient.
type RedirectError struct {
	Method     string // method of the call
	Path       string // URL path of the call
	StatusCode int    // status of the redirect response (301, 302, 303, 307, 308)
	// Origin is the refused target as scheme://host[:port]: never its path,
	// query or user info.
	Origin string
	Err    error // ErrInsecureHTTP or ErrRedirectBody
}

func (e *RedirectError) Error() string {
	var b strings.Builder
	b.WriteString("agentplatform: ")
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": refused to follow a ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	b.WriteString(" redirect to ")
	b.WriteString(clip(e.Origin))
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "agentplatform: "))
	}
	return b.String()
}

// Unwrap returns the reason, a sentinel of this package.
func (e *RedirectError) Unwrap() error { return e.Err }
