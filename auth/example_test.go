package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// The examples are the README's Authentication section. Each runs against
// the reference server, which startPlatform sets up as the platform (and as
// the workload's identity provider) and names in VENDOR_BASE_URL, read by
// both the client and the credentials.

// An API key, given as an option; without any credentials option the client
// reads VENDOR_API_KEY.
func ExampleAPIKey() {
	p := startPlatform()
	defer p.stop()
	ctx, apiKey, workspaceID := context.Background(), p.apiKey, p.workspaceID

	client, err := agentplatform.NewClient(
		option.WithAPIKey(apiKey),           // default: VENDOR_API_KEY; auth.XAPIKey(key) for the x-api-key header
		option.WithWorkspaceID(workspaceID), // for a key not scoped to one workspace
	)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	fmt.Println(auth.APIKey(apiKey)) // credentials never print the key

	m, err := client.Models.Get(ctx, "vendor-opus-5-5")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ID)
	// Output:
	// auth.APIKey([redacted])
	// vendor-opus-5-5
}

// Workload identity federation: the workload's identity token, read from the
// file its platform keeps fresh, is exchanged for short-lived access tokens.
func ExampleFederation() {
	p := startPlatform()
	defer p.stop()
	ctx, ruleID, orgID, serviceAccountID, tokenPath := context.Background(), p.ruleID, p.orgID, p.serviceAccountID, p.tokenPath

	fed, err := auth.Federation(auth.FederationConfig{
		FederationRuleID: ruleID,                            // fdrl_…
		OrganizationID:   orgID,                             // org_…
		ServiceAccountID: serviceAccountID,                  // svcacct_…
		IdentityToken:    auth.IdentityTokenFile(tokenPath), // read again for every exchange
	})
	if err != nil {
		log.Fatal(err)
	}
	defer fed.Close()
	client, err := agentplatform.NewClient(option.WithCredentials(fed))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	m, err := client.Models.Get(ctx, "vendor-opus-5-5")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ID)
	// Output: vendor-opus-5-5
}

// Workload identity federation configured by the environment:
// VENDOR_FEDERATION_RULE_ID, VENDOR_ORGANIZATION_ID,
// VENDOR_SERVICE_ACCOUNT_ID, VENDOR_IDENTITY_TOKEN_FILE (or
// VENDOR_IDENTITY_TOKEN) and, optionally, VENDOR_WORKSPACE_ID.
func ExampleFederationFromEnv() {
	p := startPlatform()
	defer p.stop()
	p.setFederationEnv()
	ctx := context.Background()

	fed, err := auth.FederationFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	defer fed.Close()
	client, err := agentplatform.NewClient(option.WithCredentials(fed))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	page, err := client.Models.List(ctx, models.ListParams{Limit: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.Data))
	// Output: 1
}

// Device attestation, in an iOS or macOS app: the Attestor wraps Apple's
// App Attest (authtest.NewAttestor stands in for it here), and the KeyStore
// keeps the attested key's id across launches (the keychain, in an app).
// The tokens authorize Messages calls only.
func ExampleDeviceAttestation() {
	p := startPlatform()
	defer p.stop()
	ctx, clientID := context.Background(), p.clientID
	attestor, keychain := authtest.NewAttestor("ABCDE12345.com.example.app"), &auth.MemoryKeyStore{}

	dev, err := auth.DeviceAttestation(auth.DeviceAttestationConfig{
		ClientID: clientID,                     // the app integration's clid_…
		AppID:    "ABCDE12345.com.example.app", // <Team ID>.<bundle id>
		Attestor: attestor,                     // your App Attest implementation
		KeyStore: keychain,                     // remembers the attested key across launches
	})
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	client, err := agentplatform.NewClient(option.WithCredentials(dev))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	msg, err := client.Messages.Create(ctx, messages.MessageParams{
		Model:     "vendor-sonnet-5-5",
		MaxTokens: 256,
		Messages:  []messages.MessageParam{messages.UserText("Hello")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Role)

	_, err = client.Models.List(ctx, models.ListParams{}) // refused before sending
	var scope *auth.ScopeError
	fmt.Println(errors.As(err, &scope), scope.Method, scope.Path)
	// Output:
	// assistant
	// true GET /v1/models
}

// platform is a reference server set up for the examples: the seeded
// organization and key, a federation rule with its issuer and service
// account, an identity token file signed by that issuer, and an app
// integration.
type platform struct {
	apiKey, orgID, workspaceID                    string
	ruleID, serviceAccountID, tokenPath, clientID string
	stop                                          func()

	saved map[string]*string // environment to restore
}

var exampleEnv = []string{"VENDOR_API_KEY", "VENDOR_BASE_URL", "VENDOR_WORKSPACE_ID",
	auth.EnvFederationRuleID, auth.EnvOrganizationID, auth.EnvServiceAccountID,
	auth.EnvIdentityTokenFile, auth.EnvIdentityToken}

func startPlatform() *platform {
	srv := refserver.New()
	ts := httptest.NewServer(srv)
	dir, err := os.MkdirTemp("", "auth-example")
	must(err)
	seed := srv.Seed()
	p := &platform{apiKey: seed.APIKey, orgID: seed.OrganizationID, workspaceID: seed.DefaultWorkspaceID, tokenPath: filepath.Join(dir, "token"),
		saved: map[string]*string{}}
	p.stop = func() {
		ts.Close()
		_ = os.RemoveAll(dir)
		for name, v := range p.saved {
			if v == nil {
				_ = os.Unsetenv(name)
			} else {
				_ = os.Setenv(name, *v)
			}
		}
	}
	for _, name := range exampleEnv {
		if v, ok := os.LookupEnv(name); ok {
			p.saved[name] = &v
		} else {
			p.saved[name] = nil
		}
		_ = os.Unsetenv(name)
	}
	_ = os.Setenv("VENDOR_BASE_URL", ts.URL)

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	issuerID, err := srv.AddFederationIssuer(refserver.FederationIssuer{Name: "idp", IssuerURL: issuerURL,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256)}}}})
	must(err)
	p.serviceAccountID = srv.CreateServiceAccount("worker")
	p.ruleID, err = srv.AddFederationRule(refserver.FederationRule{Name: "worker", IssuerID: issuerID,
		SubjectPrefix: subject, ServiceAccountID: p.serviceAccountID, WorkspaceIDs: []string{seed.DefaultWorkspaceID}})
	must(err)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, nil)
	must(err)
	claims, err := json.Marshal(map[string]any{"iss": issuerURL, "sub": subject, "aud": audience,
		"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(), "jti": rand.Text()})
	must(err)
	jws, err := signer.Sign(claims)
	must(err)
	jwt, err := jws.CompactSerialize()
	must(err)
	must(os.WriteFile(p.tokenPath, []byte(jwt), 0o600))

	p.clientID, err = srv.AddAppIntegration(refserver.AppIntegration{Name: "app", WorkspaceID: seed.DefaultWorkspaceID,
		TeamID: "ABCDE12345", BundleIDs: []string{"com.example.app"}})
	must(err)
	return p
}

// setFederationEnv configures federation as a workload's platform would.
func (p *platform) setFederationEnv() {
	_ = os.Setenv(auth.EnvFederationRuleID, p.ruleID)
	_ = os.Setenv(auth.EnvOrganizationID, p.orgID)
	_ = os.Setenv(auth.EnvServiceAccountID, p.serviceAccountID)
	_ = os.Setenv(auth.EnvIdentityTokenFile, p.tokenPath)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
