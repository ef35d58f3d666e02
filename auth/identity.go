package auth

import (
	"context"
	"errors"
	"os"
	"strings"
)

// IdentityTokenSource returns the workload's current identity token (a JWT
// from its identity provider). It is called for every exchange and every
// retry of one, since platforms rotate the token and a token with a jti is
// single-use.
type IdentityTokenSource func(ctx context.Context) (string, error)

// IdentityTokenFile reads the token from a file on every exchange, as
// platforms that rotate a projected token file (Kubernetes, cloud agents)
// require. Surrounding white space is ignored.
func IdentityTokenFile(path string) IdentityTokenSource {
	return func(context.Context) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", err // names the path, never the content
		}
		if len(strings.TrimSpace(string(b))) == 0 {
			return "", errors.New("identity token file " + path + " is empty")
		}
		return string(b), nil
	}
}

// IdentityTokenEnv reads the token from the environment variable name on
// every exchange.
func IdentityTokenEnv(name string) IdentityTokenSource {
	return func(context.Context) (string, error) {
		v := os.Getenv(name)
		if strings.TrimSpace(v) == "" {
			return "", errors.New("environment variable " + name + " is empty")
		}
		return v, nil
	}
}
