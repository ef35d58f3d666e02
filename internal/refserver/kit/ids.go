package kit

import (
	"crypto/rand"
	"sync"
)

// IDSource makes identifiers. It receives a prefix such as "wrkspc_" and
// returns the whole id. The server asks it for every id it assigns, request
// ids included, so a deterministic source makes whole responses reproducible.
type IDSource func(prefix string) string

// Base62 is ordered so that, for ids of one length, byte order equals numeric
// order: SequentialIDs then sort the way they were made, which keeps the
// created_at-then-id tie-break of lists in creation order under a frozen clock.
const Base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// IDBodyLen is the number of characters after "01" in every id, so that an id
// body is 24 characters like the platform's.
const IDBodyLen = 22

// RandomIDs returns the default IDSource: prefix + "01" + 22 random base62
// characters from crypto/rand.
func RandomIDs() IDSource {
	return func(prefix string) string {
		return prefix + "01" + RandomString(Base62, IDBodyLen)
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
		var digits [IDBodyLen]byte
		for i := len(digits) - 1; i >= 0; i-- {
			digits[i] = Base62[n%62]
			n /= 62
		}
		return prefix + "01" + string(digits[:])
	}
}

// RandomString returns n characters drawn uniformly from alphabet (at most
// 256 characters) using crypto/rand, rejecting bytes that would bias the draw.
func RandomString(alphabet string, n int) string {
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

// HasIDForm reports whether s is prefix (such as "wrkspc_") followed by 1
// to 64 ASCII letters or digits: the form the server accepts for an id a
// client names, before looking it up.
func HasIDForm(s, prefix string) bool {
	if len(s) <= len(prefix) || len(s) > len(prefix)+64 || s[:len(prefix)] != prefix {
		return false
	}
	for _, c := range []byte(s[len(prefix):]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
