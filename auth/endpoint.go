package auth

import (
	"errors"
	"net/netip"
	"net/url"
	"os"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Defaults shared with the client (internal/pipeline reads the same
// variable): a source left without a BaseURL exchanges where a client left
// without option.WithBaseURL sends its requests.
const (
	defaultBaseURL = "https://api.vendor.com"
	envBaseURL     = "VENDOR_BASE_URL"
)

// ErrInsecureEndpoint is wrapped by the error Federation and
// DeviceAttestation return for a token endpoint that is neither https nor
// loopback: the identity token or the device proof would cross the network
// in the clear. There is no option to allow it.
var ErrInsecureEndpoint = errors.New("auth: the token endpoint must use https, or http with a loopback host")

// endpointBase resolves and checks the base URL of the token endpoints:
// raw, else VENDOR_BASE_URL, else https://api.vendor.com. Plain http is
// allowed only to a loopback host, where nothing crosses the network; any
// other endpoint would receive the identity token or device proof in the
// clear. It returns scheme://host[/prefix] without a trailing slash.
func endpointBase(raw string) (string, error) {
	if raw == "" {
		raw = os.Getenv(envBaseURL)
	}
	if raw == "" {
		raw = defaultBaseURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", &apierror.ValidationError{Field: "base_url", Rule: "must be an absolute http or https URL"}
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", &apierror.ValidationError{Field: "base_url", Rule: "must not contain user info, a query or a fragment"}
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return "", &endpointError{url: u.Scheme + "://" + u.Host + u.EscapedPath()}
	}
	return strings.TrimSuffix(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
}

// endpointError refuses an insecure token endpoint.
type endpointError struct{ url string }

func (e *endpointError) Error() string {
	return "auth: refusing token endpoint " + e.url + ": it must use https, or http with a loopback host " +
		"(localhost, 127.0.0.1, ::1), since it receives the identity token or the device proof"
}

func (e *endpointError) Unwrap() error { return ErrInsecureEndpoint }

// isLoopback reports whether host names this machine (the same rule as the
// client's check for plain HTTP).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.IsLoopback()
}
