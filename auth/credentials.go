package auth

import (
	"context"
	"errors"
	"net/http"
)

// Credentials authorizes one attempt of a request, typically by setting a
// header. Authorize is called once per attempt, from many goroutines at once,
// and must be safe for concurrent use. An error stops the call before anything
// is sent; it must not contain the secret.
type Credentials interface {
	Authorize(ctx context.Context, req *http.Request) error
}

// Invalidator is implemented by credentials whose tokens can go stale before
// they expire (workload identity federation, device attestation). When the
// API answers 401 to a request they authorized, the pipeline calls
// Invalidate with that request, then sends the request once more: the
// source should drop the token the request carried (and only that one, not
// a newer token another request already fetched) so that the retry gets a
// fresh one.
type Invalidator interface {
	Invalidate(req *http.Request)
}

// errUninitialized is returned by the methods of a zero FederationCredentials
// or DeviceAttestationCredentials.
var errUninitialized = errors.New("auth: credentials must be created with auth.Federation or auth.DeviceAttestation")
