package apikeys_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/option"
)

// The API key lifecycle, as in the README: list, disable, re-enable,
// delete. It runs against the reference server with an admin client (a key
// not scoped to a workspace) and a second key, "ci", to manage.
func ExampleService() {
	client, keyID, stop := startAdmin()
	defer stop()
	ctx := context.Background()

	for key, err := range client.APIKeys.All(ctx, apikeys.ListParams{Status: apikeys.StatusActive}) {
		if err != nil {
			log.Fatal(err)
		}
		if key.Name == "ci" {
			fmt.Println(key.Name, key.Status, key.PartialKeyHint != "", key.ExpiresAt.IsZero())
		}
	}
	key, err := client.APIKeys.Disable(ctx, keyID) // inactive: refused until re-enabled
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(key.Status)
	key, err = client.APIKeys.Enable(ctx, keyID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(key.Status)
	key, err = client.APIKeys.Delete(ctx, keyID) // permanent; the key stays listed as archived
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(key.Status)
	// Output:
	// ci active true true
	// inactive
	// active
	// archived
}

// startAdmin starts a reference server and returns a client with its
// seeded owner's unscoped key, and the id of another key of that owner.
func startAdmin() (*agentplatform.Client, string, func()) {
	srv := refserver.New()
	ts := httptest.NewServer(srv)
	seed := srv.Seed()
	key, err := srv.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: seed.UserID, Name: "ci"})
	if err != nil {
		log.Fatal(err)
	}
	client, err := agentplatform.NewClient(option.WithBaseURL(ts.URL), option.WithAPIKey(seed.APIKey),
		option.WithWorkspaceID(seed.DefaultWorkspaceID)) // every request of an unscoped key names one
	if err != nil {
		log.Fatal(err)
	}
	return client, key.ID, func() { _ = client.Close(); ts.Close() }
}
