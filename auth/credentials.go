package auth

import (
	"context"
	"net/http"
)

// Credentials authorizes one attempt of a request, typically by setting a
// header. Authorize is called once per attempt, from many goroutines at once,
// and must be safe for concurrent use. An error stops the call before anything
// is sent; it must not contain the secret.
type Credentials interface {
	Authorize(ctx context.Context, req *http.Request) error
}
