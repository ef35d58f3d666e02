package pipeline

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Redaction for debug logs: secrets travel in headers (API keys, tokens) and
// in a few body fields (a repository's authorization_token, token exchange
// assertions). Both are replaced before anything is logged.

const redactedValue = "[redacted]"

// maxLoggedBody bounds how much of a request body a debug log shows.
const maxLoggedBody = 64 << 10

// sensitiveName reports whether a header or JSON field holds a secret. It
// matches whole words rather than substrings, so usage counts such as
// max_tokens and input_tokens stay readable while authorization_token,
// access_token, client_secret and api_key do not.
func sensitiveName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie",
		"assertion", "attestation", "password", "secret", "token", "credentials",
		"secret_value": // a vault credential's secret (docs/vaults-wire.md 7)
		return true
	}
	for _, suffix := range []string{"_token", "-token", "_secret", "-secret", "_password", "api_key", "api-key", "_credentials"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// redactedHeaders returns the headers as a flat map with secret values replaced.
func redactedHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		if sensitiveName(k) {
			out[k] = redactedValue
		} else {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

// redactedRequestBody returns a request's JSON body with secret fields
// replaced, read through GetBody so the body itself is left for sending.
func redactedRequestBody(req *http.Request) string {
	if req.GetBody == nil || req.ContentLength == 0 {
		return ""
	}
	if ct := req.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		// An upload: the file is content, and reading it again here would
		// consume a source that cannot be read twice.
		return "<" + strconv.FormatInt(req.ContentLength, 10) + " bytes of " + ct + ">"
	}
	if req.ContentLength > maxLoggedBody {
		return "<" + strconv.FormatInt(req.ContentLength, 10) + " bytes>"
	}
	rc, err := req.GetBody()
	if err != nil {
		return "<unreadable body>"
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, maxLoggedBody))
	if err != nil {
		return "<unreadable body>"
	}
	return RedactJSON(raw)
}

// RedactJSON returns raw with the values of secret fields replaced, at any
// depth. A body that is not JSON is described, not shown.
func RedactJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "<" + strconv.Itoa(len(raw)) + " bytes, not JSON>"
	}
	out, err := json.Marshal(redactValue(v))
	if err != nil {
		return "<" + strconv.Itoa(len(raw)) + " bytes>"
	}
	return string(out)
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if sensitiveName(k) {
				x[k] = redactedValue
			} else {
				x[k] = redactValue(val)
			}
		}
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
	}
	return v
}
