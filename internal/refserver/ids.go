package refserver

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"sync"
)

// IDSource makes identifiers. It receives a prefix such as "wrkspc_" and
// returns the whole id. The server asks it for every id it assigns, request
// ids included, so a deterministic source makes whole responses reproducible.
type IDSource func(prefix string) string

// base62 is ordered so that, for ids of one length, byte order equals numeric
// order: SequentialIDs then sort the way they were made, which keeps the
// created_at-then-id tie-break of lists in creation order under a frozen clock.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idBodyLen is the number of characters after "01" in every id, so that an id
// body is 24 characters like the platform's.
const idBodyLen = 22

// RandomIDs returns the default IDSource: prefix + "01" + 22 random base62
// characters from crypto/rand.
func RandomIDs() IDSource {
	return func(prefix string) string {
		return prefix + "01" + randomString(base62, idBodyLen)
	}
}

// SequentialIDs returns a deterministic IDSource: prefix + "01" + a base62
// counter zero-padded to 22 characters, one counter per prefix, starting at 1.
// It is safe for concurrent use.
func SequentialIDs() IDSource {
	var mu sync.Mutex
	counters := make(map[string]uint64)
	return func(prefix string) string {
		mu.Lock()
		counters[prefix]++
		n := counters[prefix]
		mu.Unlock()
		var digits [idBodyLen]byte
		for i := len(digits) - 1; i >= 0; i-- {
			digits[i] = base62[n%62]
			n /= 62
		}
		return prefix + "01" + string(digits[:])
	}
}

// randomString returns n characters drawn uniformly from alphabet (at most
// 256 characters) using crypto/rand, rejecting bytes that would bias the draw.
func randomString(alphabet string, n int) string {
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		rand.Read(buf) // never returns an error (crypto/rand, Go 1.24+)
		for _, b := range buf {
			if int(b) < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out)
}

// keySecretPrefix starts every API key secret.
const keySecretPrefix = "sk-vendor-api03-"

// newKeySecret returns a fresh API key secret: the prefix and 43 url-safe
// characters (32 random bytes). Secrets always come from crypto/rand, even
// with SequentialIDs, because nothing should be able to predict a credential.
func newKeySecret() string {
	var b [32]byte
	rand.Read(b[:])
	return keySecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// secretDigest is how the server remembers a secret: it keeps no secret in
// its state except the seed key's, which Seed must return.
func secretDigest(secret string) [32]byte {
	return sha256.Sum256([]byte(secret))
}

const (
	tunnelDomainSuffix = ".tunnel.vendor.dev"
	tunnelLabelLen     = 12
	lowerAlnum         = "0123456789abcdefghijklmnopqrstuvwxyz"
)

// tunnelDomain derives a tunnel's hostname from its id (and an attempt number
// used only after a collision). Deriving it rather than drawing it keeps
// responses deterministic under SequentialIDs; ids are unique, so domains are.
func tunnelDomain(tunnelID string, attempt int) string {
	sum := sha256.Sum256([]byte(tunnelID + "#" + strconv.Itoa(attempt)))
	var label strings.Builder
	for _, b := range sum[:tunnelLabelLen] {
		label.WriteByte(lowerAlnum[int(b)%len(lowerAlnum)])
	}
	return label.String() + tunnelDomainSuffix
}
