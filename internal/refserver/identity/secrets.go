package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
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
