package kit

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// RecordedRequest is one request as the server received it, with
// credentials redacted.
type RecordedRequest struct {
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	Time     time.Time // server clock
}

// requestLogSize bounds the log: the most recent requests are kept.
const requestLogSize = 1000

// requestLogBytes bounds the bodies the log keeps, all together: past it
// the oldest entries lose their bodies. Without it a standalone server
// would hold 1,000 bodies of up to the body limit each.
const requestLogBytes = 64 << 20

// RequestLog is a ring buffer of the most recent requests. An entry gets
// its body only once the request is known to be worth it (KeepBody): a
// request that was routed to a public endpoint or whose credentials were
// accepted, or that a test's fault took. Anyone can send the others, so
// the server keeps nothing of their bodies.
type RequestLog struct {
	mu        sync.Mutex
	entries   []*RecordedRequest
	next      int // where the next entry goes once the ring is full
	bodyBytes int // the length of every Body held
}

// Add records r without its body, and returns the entry for KeepBody.
func (l *RequestLog) Add(r *http.Request, now time.Time) *RecordedRequest {
	rec := &RecordedRequest{
		Method:   r.Method,
		Path:     r.URL.Path,
		RawQuery: r.URL.RawQuery,
		Header:   redactHeader(r.Header),
		Time:     now,
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) < requestLogSize {
		l.entries = append(l.entries, rec)
		return rec
	}
	l.bodyBytes -= len(l.entries[l.next].Body)
	l.entries[l.next] = rec
	l.next = (l.next + 1) % requestLogSize
	return rec
}

// KeepBody gives rec, an entry Add returned, its body (redacted), and
// takes bodies from the oldest entries while the log holds more than
// requestLogBytes. An entry already evicted from the ring is left alone.
func (l *RequestLog) KeepBody(rec *RecordedRequest, body []byte) {
	if rec == nil || body == nil {
		return
	}
	body = redactBody(body)
	l.mu.Lock()
	defer l.mu.Unlock()
	if rec.Body != nil || !slices.Contains(l.entries, rec) {
		return
	}
	rec.Body = body
	l.bodyBytes += len(body)
	for i := 0; l.bodyBytes > requestLogBytes && i < len(l.entries); i++ {
		old := l.entries[(l.next+i)%len(l.entries)]
		l.bodyBytes -= len(old.Body)
		old.Body = nil
	}
}

// List returns copies of the recorded requests, oldest first.
func (l *RequestLog) List() []RecordedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]RecordedRequest, 0, len(l.entries))
	for i := range l.entries {
		rec := *l.entries[(l.next+i)%len(l.entries)]
		rec.Header = rec.Header.Clone()
		rec.Body = bytes.Clone(rec.Body)
		out = append(out, rec)
	}
	return out
}

// Reset empties the log.
func (l *RequestLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries, l.next, l.bodyBytes = nil, 0, 0
}

// Redacted replaces a credential in the log.
const Redacted = "[redacted]"

// redactHeader copies h with credential values replaced. The headers stay
// present so a test can see which one the client sent, and the Bearer
// scheme stays visible ("Bearer [redacted]").
func redactHeader(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		return http.Header{}
	}
	for i, v := range out.Values("Authorization") {
		if scheme, _, ok := strings.Cut(v, " "); ok {
			out["Authorization"][i] = scheme + " " + Redacted
		} else {
			out["Authorization"][i] = Redacted
		}
	}
	for i := range out.Values("X-Api-Key") {
		out["X-Api-Key"][i] = Redacted
	}
	return out
}

// secretBodyFields are body fields that carry credentials, redacted in the
// request log: a repository's authorization_token (never returned, so never
// recorded), and the token exchanges' assertion and attestation
// (docs/auth-wire.md 2.9), and the secrets of vault credentials
// (docs/vaults-wire.md 7).
var secretBodyFields = []string{"authorization_token", "assertion", "attestation",
	"access_token", "refresh_token", "client_secret", "token", "secret_value"}

// redactBody replaces the values of secretBodyFields anywhere in a JSON
// body. Field names match without regard to case, as encoding/json matches
// struct fields, and also when spelled with escapes ("assert\u0069on"),
// which a JSON decoder reads as the plain name. Bodies without such a field
// are kept byte for byte, and not copied: nothing writes to a request body
// once read, and Requests hands out copies.
func redactBody(body []byte) []byte {
	if body == nil {
		return nil
	}
	lower := bytes.ToLower(body)
	mentionsSecret := bytes.Contains(lower, []byte(`\u`)) || slices.ContainsFunc(secretBodyFields, func(f string) bool {
		return bytes.Contains(lower, []byte(`"`+f+`"`))
	})
	if !mentionsSecret {
		return body
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep numbers exactly as sent
	if err := dec.Decode(&v); err != nil {
		// Not JSON, yet it may name a secret field: keep nothing of it.
		return []byte(Redacted)
	}
	if !redactValue(v) {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(Redacted)
	}
	return out
}

// redactValue redacts v in place and reports whether it changed anything.
func redactValue(v any) bool {
	changed := false
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if isSecretBodyField(k) {
				v[k] = Redacted
				changed = true
				continue
			}
			changed = redactValue(child) || changed
		}
	case []any:
		for _, child := range v {
			changed = redactValue(child) || changed
		}
	}
	return changed
}

func isSecretBodyField(name string) bool {
	return slices.ContainsFunc(secretBodyFields, func(f string) bool { return strings.EqualFold(f, name) })
}
