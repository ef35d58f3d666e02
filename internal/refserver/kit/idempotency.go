package kit

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"
)

// Idempotency (docs/api-choices.md, "Transport"): a POST with an
// Idempotency-Key is executed once per (API key, Idempotency-Key). The first
// response below 500 is remembered for 24 hours and replayed with
// idempotent-replayed: true; the same key with a different request is 400;
// a key whose first request is still running is 409. For an access token
// the "API key" is the identity the token acts for (Caller.IdempotencyOwner):
// tokens are replaced every hour or so, and a retry after a refresh must
// still be recognised.

const (
	HeaderIdempotencyKey = "Idempotency-Key"
	idempotencyTTL       = 24 * time.Hour
	// idempotencySweepEvery is how many new records trigger a sweep of
	// expired ones, which keeps a long-running server's memory bounded.
	idempotencySweepEvery = 256
)

type idempotencyScope struct {
	apiKeyID string
	key      string
}

type idempotencyRecord struct {
	fingerprint [32]byte
	createdAt   time.Time
	done        bool
	status      int
	contentType string
	body        []byte
}

// IdempotencyStore remembers the Idempotency-Keys of recent POSTs and
// their responses. Its zero value is ready to use.
type IdempotencyStore struct {
	mu      sync.Mutex
	records map[idempotencyScope]*idempotencyRecord
	inserts int
}

type idempotencyOutcome int

const (
	idempotencyFirst    idempotencyOutcome = iota // run the handler
	idempotencyReplay                             // send the stored response
	idempotencyMismatch                           // same key, different request
	idempotencyInFlight                           // same key, first request still running
)

// begin looks the key up and, when it is new (or its record expired),
// marks it in flight.
func (st *IdempotencyStore) begin(scope idempotencyScope, fp [32]byte, now time.Time) (idempotencyRecord, idempotencyOutcome) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if rec, ok := st.records[scope]; ok && now.Sub(rec.createdAt) < idempotencyTTL {
		switch {
		case rec.fingerprint != fp:
			return idempotencyRecord{}, idempotencyMismatch
		case !rec.done:
			return idempotencyRecord{}, idempotencyInFlight
		default:
			return *rec, idempotencyReplay
		}
	}
	st.inserts++
	if st.inserts%idempotencySweepEvery == 0 {
		for k, rec := range st.records {
			if rec.done && now.Sub(rec.createdAt) >= idempotencyTTL {
				delete(st.records, k)
			}
		}
	}
	if st.records == nil {
		st.records = map[idempotencyScope]*idempotencyRecord{}
	}
	st.records[scope] = &idempotencyRecord{fingerprint: fp, createdAt: now}
	return idempotencyRecord{}, idempotencyFirst
}

// finish stores the response of the first request, or forgets the key when
// there is nothing to replay (a 5xx, a streamed response, a panic), so that
// a retry runs again.
func (st *IdempotencyStore) finish(scope idempotencyScope, rb *ResponseBuffer, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	rec := st.records[scope]
	if rec == nil {
		return
	}
	if !ok || rb.Committed || rb.StatusCode() >= 500 {
		delete(st.records, scope)
		return
	}
	rec.done = true
	rec.status = rb.StatusCode()
	rec.contentType = rb.Header().Get("Content-Type")
	rec.body = bytes.Clone(rb.Bytes())
}

// Run runs a POST handler under the idempotency rules.
func (st *IdempotencyStore) Run(c *Call, handle func(*Call) error) {
	scope, keyed, err := idempotencyScopeOf(c)
	switch {
	case err != nil:
		c.Fail(err)
		return
	case !keyed:
		c.Run(handle)
		return
	}
	if replayed, err := st.claim(c, scope, requestFingerprint(c.R, c.WorkspaceID, c.Ex.Body)); err != nil || replayed {
		if err != nil {
			c.Fail(err)
		}
		return
	}
	finished := false
	defer func() { st.finish(scope, c.Ex.RB, finished) }()
	c.Run(handle)
	finished = true
}

// RunRaw runs a RawBody POST handler under the idempotency rules. The key
// is checked before the handler runs, but the request is known only once
// the handler has read the body: it then calls Call.ClaimIdempotency with
// a digest of it, which looks the key up as Run does before its handler.
// A handler that fails before claiming (a malformed body) leaves nothing
// stored, so that answer is not replayed: a retry is checked again.
func (st *IdempotencyStore) RunRaw(c *Call, handle func(*Call) error) {
	scope, keyed, err := idempotencyScopeOf(c)
	switch {
	case err != nil:
		c.Fail(err)
		return
	case !keyed:
		c.Run(handle)
		return
	}
	claimed := false
	c.claim = func(digest [32]byte) (bool, error) {
		replayed, err := st.claim(c, scope, requestFingerprint(c.R, c.WorkspaceID, digest[:]))
		claimed = err == nil && !replayed
		return replayed, err
	}
	finished := false
	defer func() {
		c.claim = nil
		if claimed {
			st.finish(scope, c.Ex.RB, finished)
		}
	}()
	c.Run(handle)
	finished = true
}

// idempotencyScopeOf reads the request's Idempotency-Key: keyed is false
// without one; a key of the wrong length is the error.
func idempotencyScopeOf(c *Call) (scope idempotencyScope, keyed bool, err error) {
	values := c.R.Header.Values(HeaderIdempotencyKey)
	if len(values) == 0 {
		return idempotencyScope{}, false, nil
	}
	key := values[0]
	if n := utf8.RuneCountInString(key); n < 1 || n > 255 {
		return idempotencyScope{}, false, InvalidField(HeaderIdempotencyKey, "must be between 1 and 255 characters")
	}
	return idempotencyScope{apiKeyID: c.Caller.IdempotencyOwner(), key: key}, true, nil
}

// claim looks the key up for a request with fingerprint fp: a new key is
// marked in flight (false, nil), a finished one with the same fingerprint
// has its response replayed (true, nil), anything else is the error.
func (st *IdempotencyStore) claim(c *Call, scope idempotencyScope, fp [32]byte) (replayed bool, err error) {
	rec, outcome := st.begin(scope, fp, c.Deps.Clock.Now())
	switch outcome {
	case idempotencyMismatch:
		return false, InvalidField(HeaderIdempotencyKey, "was already used for a different request")
	case idempotencyInFlight:
		inFlight := NewAPIError(http.StatusConflict, ErrConflict,
			"%s: a request with this key is still in progress", HeaderIdempotencyKey)
		inFlight.ShouldRetry = "true" // once the first request ends, a retry gets its answer
		return false, inFlight
	case idempotencyReplay:
		c.W.Header().Set("idempotent-replayed", "true")
		if rec.contentType != "" {
			c.W.Header().Set("Content-Type", rec.contentType)
		}
		c.W.WriteHeader(rec.status)
		_, _ = c.W.Write(rec.body)
		return true, nil
	}
	return false, nil
}

// requestFingerprint identifies "the same request": method, path, query,
// the workspace it runs in, and body.
func requestFingerprint(r *http.Request, workspaceID string, body []byte) [32]byte {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.Path, r.URL.RawQuery, workspaceID} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(body)
	var fp [32]byte
	h.Sum(fp[:0])
	return fp
}
