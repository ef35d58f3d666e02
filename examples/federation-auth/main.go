// Command federation-auth calls the API with no API key, as a workload
// (a Kubernetes pod, a CI job, a cloud function) does with workload identity
// federation: the identity token its platform gives it, a JWT in a file, is
// exchanged for short-lived access tokens of a service account, which the
// SDK caches and refreshes.
//
//	go run ./examples/federation-auth
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, on which it first registers what an administrator sets up
// once: an identity provider (an issuer with a freshly generated ES256 key),
// a service account, and a federation rule; it then writes an identity token
// signed by that issuer to a temporary file, as the workload's platform
// would. With VENDOR_API_KEY set it calls the API at VENDOR_BASE_URL, with
// the federation that VENDOR_FEDERATION_RULE_ID, VENDOR_ORGANIZATION_ID,
// VENDOR_SERVICE_ACCOUNT_ID and VENDOR_IDENTITY_TOKEN_FILE describe (the API
// key itself is not used).
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("federation-auth: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process with a federation set up
	// on it (see embedded.go).
	var (
		emb     *embedded // nil against the real API
		fed     *auth.FederationCredentials
		baseURL = cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com")
		err     error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", baseURL)
		// The federation that VENDOR_FEDERATION_RULE_ID,
		// VENDOR_ORGANIZATION_ID, VENDOR_SERVICE_ACCOUNT_ID and
		// VENDOR_IDENTITY_TOKEN_FILE (and VENDOR_BASE_URL) describe.
		fed, err = auth.FederationFromEnv()
	} else {
		if emb, err = startEmbedded(); err != nil {
			return err
		}
		defer emb.close()
		baseURL = emb.srv.URL()
		fmt.Println("Target: the embedded reference server at", baseURL, "(set VENDOR_API_KEY to use the real API)")
		emb.printSetUp()
		fed, err = auth.Federation(auth.FederationConfig{
			BaseURL:          baseURL,                               // where the token exchange goes
			FederationRuleID: emb.fed.RuleID,                        // fdrl_…
			OrganizationID:   emb.fed.OrganizationID,                // org_…
			ServiceAccountID: emb.fed.ServiceAccountID,              // svcacct_…
			IdentityToken:    auth.IdentityTokenFile(emb.tokenPath), // read again for every exchange
		})
	}
	if err != nil {
		return err
	}
	defer fed.Close()
	fmt.Println("Credentials:", fed) // they never print a token

	// No API key and no workspace: the access token stands for the rule's
	// service account in the rule's workspace.
	client, err := agentplatform.NewClient(option.WithBaseURL(baseURL), option.WithCredentials(fed))
	if err != nil {
		return err
	}
	defer client.Close()

	page, err := client.Models.List(ctx, models.ListParams{})
	if err != nil {
		return err
	}
	fmt.Printf("The service account sees %d models\n", len(page.Data))
	msg, err := client.Messages.Create(ctx, messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 64,
		Messages:  []messages.MessageParam{messages.UserText("Hello from a workload.")},
	})
	if err != nil {
		return err
	}
	fmt.Println("Reply:", msg.Text())
	if emb != nil {
		emb.printExchanges()
	}
	return nil
}
