package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
)

// APIKey returns credentials that send key as "Authorization: Bearer <key>",
// the form the platform documents first.
func APIKey(key string) Credentials { return &apiKey{key: key, bearer: true} }

// XAPIKey returns credentials that send key in the legacy "x-api-key" header,
// for proxies and gateways that expect it.
func XAPIKey(key string) Credentials { return &apiKey{key: key} }

// apiKey is a static API key. Its printing methods hide the key, so that
// printing or logging the credentials never shows it. It is handed out as a
// pointer: fmt does not call those methods on a value it reaches through
// unexported fields (printing a client or a config with %s, say), but it
// prints a pointer it finds there as an address, never following it.
type apiKey struct {
	key    string
	bearer bool
}

func (k *apiKey) Authorize(_ context.Context, req *http.Request) error {
	if k.bearer {
		req.Header["Authorization"] = []string{"Bearer " + k.key}
	} else {
		req.Header["X-Api-Key"] = []string{k.key}
	}
	return nil
}

const redacted = "[redacted]"

func (k *apiKey) String() string {
	if k.bearer {
		return "auth.APIKey(" + redacted + ")"
	}
	return "auth.XAPIKey(" + redacted + ")"
}

// GoString, Format (every verb) and LogValue print String: never the key.
func (k *apiKey) GoString() string              { return k.String() }
func (k *apiKey) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(k.String())) }
func (k *apiKey) LogValue() slog.Value          { return slog.StringValue(k.String()) }
