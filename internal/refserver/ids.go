package refserver

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

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
