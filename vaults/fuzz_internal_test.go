package vaults

import (
	"path/filepath"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// roundTrip checks decode → encode → decode: what decodes encodes, and
// decodes again to an equal value.
func roundTrip[T any](t *testing.T, data []byte) {
	wiretest.RoundTrip(t, data, wiretest.Decode[T], false)
}

// seeds adds the documents of testdata/<dir> to f's corpus.
func seeds(f *testing.F, dir string) {
	for _, doc := range wiretest.Documents(f, filepath.Join("testdata", dir)) {
		f.Add(doc)
	}
}

// FuzzCredentialRoundTrip checks a credential and its auth and networking
// unions: whatever decodes survives decode → encode → decode unchanged.
func FuzzCredentialRoundTrip(f *testing.F) {
	seeds(f, "credential")
	f.Fuzz(roundTrip[Credential])
}

// FuzzValidationRoundTrip checks a validation result likewise.
func FuzzValidationRoundTrip(f *testing.F) {
	seeds(f, "validation")
	f.Fuzz(roundTrip[Validation])
}

// FuzzVaultRoundTrip checks a vault likewise.
func FuzzVaultRoundTrip(f *testing.F) {
	seeds(f, "vault")
	f.Fuzz(roundTrip[Vault])
}
