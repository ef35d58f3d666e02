package pipeline

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/config"
)

// Redirects. net/http, left to itself, strips only Authorization and
// Cookie, and only when the domain changes: an x-api-key, a token in a
// header of the application's choosing, or the request body (which can
// hold a repository's authorization token) would follow a redirect to
// whatever host the Location names. So the SDK runs its own checks on
// every hop, before the application's policy:
//
//   - a hop to plain HTTP on a host that is not loopback is refused unless
//     option.WithInsecureHTTP was given, as for the base URL;
//   - a hop to another origin (scheme, host or port) than the call's
//     loses every credential header, and is refused if it would carry the
//     body (307, 308).

// maxRedirects is net/http's own limit, which a CheckRedirect replaces.
const maxRedirects = 10

var errTooManyRedirects = errors.New("stopped after 10 redirects")

// redirectPolicy returns the CheckRedirect of the attempt client: the SDK's
// checks, then next (the application's http.Client.CheckRedirect) or, when
// it has none, net/http's limit of ten hops.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if err := checkHop(req, via); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return errTooManyRedirects
		}
		return nil
	}
}

// checkHop applies the SDK's rules to the next hop req of a request that
// started as via[0].
func checkHop(req *http.Request, via []*http.Request) error {
	c := callFrom(req.Context())
	if req.URL.Scheme == "http" && !config.IsLoopback(req.URL.Hostname()) && (c == nil || !c.cfg.AllowInsecure) {
		return refuseRedirect(c, req, apierror.ErrInsecureHTTP)
	}
	if sameOrigin(req.URL, via[0].URL) {
		return nil
	}
	if req.Body != nil && req.Body != http.NoBody {
		return refuseRedirect(c, req, apierror.ErrRedirectBody)
	}
	stripCredentials(req.Header, c)
	return nil
}

// stripCredentials removes from h the headers the call's credentials set,
// and every header whose name says it is secret: Authorization,
// Proxy-Authorization, X-Api-Key, Cookie, and the application's own
// (option.WithHeader) by the rule the debug log redacts them by.
func stripCredentials(h http.Header, c *call) {
	for k := range h {
		if sensitiveName(k) {
			delete(h, k)
		}
	}
	if c != nil {
		for _, k := range c.authHeaders {
			delete(h, k)
		}
	}
}

func refuseRedirect(c *call, req *http.Request, reason error) error {
	e := &apierror.RedirectError{Origin: origin(req.URL), Err: reason}
	if req.Response != nil {
		e.StatusCode = req.Response.StatusCode
	}
	if c != nil {
		e.Method, e.Path = c.req.Method, c.req.Path
	}
	return e
}

// sameOrigin compares scheme, host and port, the port defaulting by scheme.
func sameOrigin(a, b *url.URL) bool {
	return a.Scheme == b.Scheme && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// origin is scheme://host[:port] of u: nothing of its path, query or user info.
func origin(u *url.URL) string {
	return u.Scheme + "://" + u.Host
}
