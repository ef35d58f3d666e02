package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentplatform/agentplatform-go/platformtest"
)

// The workload's identity, as its platform's identity provider states it.
const subject = "system:serviceaccount:prod:report-worker"

// embedded is the SDK's reference server, started in this process, with a
// federation set up on it, and the file holding the workload's identity
// token.
type embedded struct {
	srv       *platformtest.Server
	fed       *platformtest.Federation
	tokenPath string
}

// startEmbedded starts the reference server and does on it what an
// administrator does once on the platform, and what the workload's
// platform does for it:
//
//   - registers an identity provider, a service account, and a rule that
//     maps that provider's tokens for the subject to the account, in the
//     default workspace (platformtest.Server.AddFederation);
//   - mints an identity token for the workload and writes it to a file.
func startEmbedded() (_ *embedded, err error) {
	srv, err := platformtest.NewServer()
	if err != nil {
		return nil, err
	}
	e := &embedded{srv: srv}
	defer func() {
		if err != nil {
			e.close()
		}
	}()
	if e.fed, err = srv.AddFederation(subject); err != nil {
		return nil, err
	}
	jwt, err := e.fed.IdentityToken(time.Hour)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "federation-auth")
	if err != nil {
		return nil, err
	}
	e.tokenPath = filepath.Join(dir, "token")
	if err := os.WriteFile(e.tokenPath, []byte(jwt), 0o600); err != nil {
		return nil, err
	}
	return e, nil
}

// close stops the server and removes the identity token.
func (e *embedded) close() {
	if e.tokenPath != "" {
		_ = os.RemoveAll(filepath.Dir(e.tokenPath))
	}
	e.srv.Close()
}

// printSetUp says what startEmbedded set up.
func (e *embedded) printSetUp() {
	fmt.Printf("Embedded server: service account %s, rule %s; identity token in %s\n",
		e.fed.ServiceAccountID, e.fed.RuleID, e.tokenPath)
}

// printExchanges says how many token exchanges the server answered: one,
// however many calls used the token.
func (e *embedded) printExchanges() {
	n, all := 0, e.srv.Requests()
	for _, r := range all {
		if r.Path == "/v1/oauth/token" {
			n++
		}
	}
	fmt.Printf("Embedded server: %d token exchange(s) for %d API calls\n", n, len(all)-n)
}
