package auth

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// The exchange requests carry a secret in their body: the identity token or
// the device proof. Go's default redirect policy would re-post that body to
// wherever a 307 or 308 points, and a redirect to plain http would send it
// in the clear, so the exchanger follows a redirect only within the token
// endpoint's origin (scheme, host and port).

// maxRedirects is Go's default limit, which a CheckRedirect of our own
// replaces.
const maxRedirects = 10

type redirectPolicy = func(req *http.Request, via []*http.Request) error

// exchangeClient returns the client the exchanger sends with: hc, or a
// client of its own when hc is nil, with the origin check in front of the
// redirect policy. The caller's client is copied, not changed: its
// transport, cookie jar, timeout and redirect policy are kept.
func exchangeClient(hc *http.Client, origin string) (c *http.Client, owned *http.Transport) {
	if hc == nil {
		// A private transport, so that Close releases its connections
		// without touching one the process shares. The exchange is not a
		// stream, so a client timeout is safe here.
		owned = http.DefaultTransport.(*http.Transport).Clone()
		c = &http.Client{Transport: owned, Timeout: defaultHTTPTimeout}
	} else {
		cp := *hc
		c = &cp
	}
	c.CheckRedirect = sameOriginOnly(origin, c.CheckRedirect)
	return c, owned
}

// sameOriginOnly refuses a redirect that leaves origin, or goes to plain
// http on a host that is not loopback, before next (or Go's default limit)
// decides on the others.
func sameOriginOnly(origin string, next redirectPolicy) redirectPolicy {
	return func(req *http.Request, via []*http.Request) error {
		u := req.URL
		if originKey(u) != origin || u.Scheme != "https" && !isLoopback(u.Hostname()) {
			return newRedirectError(req)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// originKey is u's origin in a comparable form: lower case, with the
// scheme's default port made explicit.
func originKey(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = "443"
		if scheme == "http" {
			port = "80"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// redirectError is a redirect to another origin, refused. It names the
// target's origin and nothing more of its URL, whose path or query could
// carry anything.
type redirectError struct{ origin string } // scheme://host[:port]

func newRedirectError(req *http.Request) *redirectError {
	return &redirectError{origin: req.URL.Scheme + "://" + req.URL.Host}
}

func (e *redirectError) Error() string {
	return "the token endpoint redirected to another origin, " + e.origin + "; not followed"
}

// refusedRedirect is the error of a request whose redirect the policy
// refused: ours, or the caller's own policy, whose error is kept as the
// cause. resp is the redirect. It is not temporary: the same request would
// be redirected again.
func refusedRedirect(path string, resp *http.Response, err error) *ExchangeError {
	xe := &ExchangeError{Endpoint: path, StatusCode: resp.StatusCode, RequestID: resp.Header.Get("request-id"), redirected: true}
	var re *redirectError
	var ue *url.Error
	switch {
	case errors.As(err, &re):
		xe.Message = re.Error()
	case errors.As(err, &ue):
		xe.Message, xe.Err = "the redirect was not followed", ue.Err // not ue itself: its text has the target URL
	default:
		xe.Message, xe.Err = "the redirect was not followed", err
	}
	return xe
}
