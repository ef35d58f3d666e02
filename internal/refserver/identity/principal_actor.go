package identity

import "strings"

// ServiceAccountID is the service account a federation access token acts
// as; "" for API keys (a service account's keys included: they are named
// by their key id) and for tokens that act as no service account. What a
// request writes records it as a service_account_actor, since such a
// caller has no API key to name.
func (p Principal) ServiceAccountID() string {
	if p.kind == ServiceAccountKey && strings.HasPrefix(p.idemOwner, "oauth:") {
		return p.ownerID
	}
	return ""
}
