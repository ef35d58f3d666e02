package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agentplatform/agentplatform-go/examples/internal/exampleenv"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The workload's identity, as its platform's identity provider states it.
const (
	issuerURL = "https://idp.example.com"
	subject   = "system:serviceaccount:prod:report-worker"
	audience  = "https://api.vendor.com"
)

// workload is the federation set up on the embedded server, and the file
// holding the workload's identity token.
type workload struct {
	organizationID, serviceAccountID, ruleID string
	tokenPath                                string
	remove                                   func()
}

// registerWorkload does on the embedded server what an administrator does
// once on the platform, and what the workload's platform does for it:
//
//   - registers an identity provider, trusted for JWTs signed with a new
//     ES256 key;
//   - creates a service account, and a rule that maps that provider's
//     tokens for the subject to it, in the default workspace;
//   - mints an identity token for the workload and writes it to a file.
func registerWorkload(env *exampleenv.Env) (*workload, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	const keyID = "key-1"
	issuerID, err := env.Server.AddFederationIssuer(refserver.FederationIssuer{
		Name:      "example-idp",
		IssuerURL: issuerURL,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &key.PublicKey, KeyID: keyID, Algorithm: string(jose.ES256), Use: "sig"},
		}},
	})
	if err != nil {
		return nil, err
	}
	seed := env.Server.Seed()
	w := &workload{organizationID: seed.OrganizationID, serviceAccountID: env.Server.CreateServiceAccount("report-worker")}
	w.ruleID, err = env.Server.AddFederationRule(refserver.FederationRule{
		Name:             "report-worker",
		IssuerID:         issuerID,
		SubjectPrefix:    subject,
		ServiceAccountID: w.serviceAccountID,
		WorkspaceIDs:     []string{seed.DefaultWorkspaceID},
	})
	if err != nil {
		return nil, err
	}

	jwt, err := mintIdentityToken(key, keyID, env.Now())
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "federation-auth")
	if err != nil {
		return nil, err
	}
	w.tokenPath = filepath.Join(dir, "token")
	w.remove = func() { _ = os.RemoveAll(dir) }
	if err := os.WriteFile(w.tokenPath, []byte(jwt), 0o600); err != nil {
		w.remove()
		return nil, err
	}
	fmt.Printf("Embedded server: issuer %s, service account %s, rule %s; identity token in %s\n",
		issuerID, w.serviceAccountID, w.ruleID, w.tokenPath)
	return w, nil
}

// mintIdentityToken signs a JWT for the workload, valid for an hour from now.
func mintIdentityToken(key *ecdsa.PrivateKey, keyID string, now time.Time) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: keyID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(map[string]any{
		"iss": issuerURL, "sub": subject, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": rand.Text(),
	})
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(claims)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// printExchanges says how many token exchanges the embedded server answered:
// one, however many calls used the token.
func printExchanges(env *exampleenv.Env) {
	if !env.Embedded() {
		return
	}
	n := 0
	for _, r := range env.Server.Requests() {
		if r.Path == "/v1/oauth/token" {
			n++
		}
	}
	fmt.Printf("Embedded server: %d token exchange(s) for %d API calls\n", n, len(env.Server.Requests())-n)
}
