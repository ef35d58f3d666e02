package auth

import (
	"context"
	"sync"
)

// Attestor proves that this installation is an unmodified build of a
// registered app. Its three operations are those of Apple's
// DCAppAttestService; on Apple platforms the application implements it by
// calling that service (generateKey, attestKey, generateAssertion). Tests
// use authtest.Attestor.
//
// The source calls it from one exchange at a time, never concurrently.
type Attestor interface {
	// GenerateKey creates a new key pair in the device's secure hardware
	// and returns its id: the standard base64 of the SHA-256 of its public
	// key.
	GenerateKey(ctx context.Context) (keyID string, err error)
	// AttestKey returns the attestation object for the key, over the
	// 32-byte client-data hash.
	AttestKey(ctx context.Context, keyID string, clientDataHash []byte) (attestation []byte, err error)
	// GenerateAssertion signs the client-data hash with an attested key.
	// The attestor keeps the key's counter, which increases with every
	// assertion.
	GenerateAssertion(ctx context.Context, keyID string, clientDataHash []byte) (assertion []byte, err error)
}

// KeyStore remembers the id of the key that has been attested, so that an
// installation attests once and asserts afterwards, across launches. On
// Apple platforms keep it in the keychain. The id is not a secret: the key
// itself never leaves the secure hardware.
type KeyStore interface {
	// LoadKeyID returns the attested key's id, or "" when there is none.
	LoadKeyID(ctx context.Context) (string, error)
	// StoreKeyID records the attested key's id; "" forgets it.
	StoreKeyID(ctx context.Context, keyID string) error
}

// MemoryKeyStore is a KeyStore that lives as long as the process: every
// new process attests a new key. Its zero value is ready to use.
type MemoryKeyStore struct {
	mu sync.Mutex
	id string
}

// LoadKeyID returns the id stored last, or "".
func (s *MemoryKeyStore) LoadKeyID(context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id, nil
}

// StoreKeyID keeps keyID until the process ends.
func (s *MemoryKeyStore) StoreKeyID(_ context.Context, keyID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.id = keyID
	return nil
}
