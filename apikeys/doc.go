// Package apikeys is the organization administration API for API keys
// (docs/auth-wire.md 5): list, retrieve, rename, and the
// console's status moves Disable, Enable (re-enable) and Delete.
//
// These endpoints belong to the admin API: they accept a personal or service
// account key only when the key is not scoped to a workspace.
// Keys are created in the console; the API has no create endpoint, and
// deleting is the move to status "archived", after which the key is still
// listed.
//
//	for key, err := range client.APIKeys.All(ctx, apikeys.ListParams{Status: apikeys.StatusExpired}) {
//		if err != nil {
//			return err
//		}
//		_, err = client.APIKeys.Delete(ctx, key.ID) // an expired key can only be deleted
//	}
//
// State rules the API enforces, answering 409 (an *apierror.Error with
// StatusCode 409) when broken: a deleted key never changes again, and an
// expired key can only be deleted. Expiry is fixed at creation; once it
// passes on the server's clock the key reports StatusExpired, which is
// computed, never set.
package apikeys
