package messages

import (
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The vendor-user-profile-id request header (docs/messages-wire.md 1.2)
// names the user profile a Messages, count_tokens or batch request is made
// for. The reference server keeps no user profiles: it checks the id's
// form and otherwise ignores it.

const headerUserProfileID = "vendor-user-profile-id"

// validUserProfileID reports whether s is uprof_ followed by 1–64 ASCII
// letters or digits.
func validUserProfileID(s string) bool { return kit.HasIDForm(s, "uprof_") }

// checkUserProfile refuses a malformed vendor-user-profile-id; an absent
// header is fine.
func checkUserProfile(h http.Header) error {
	for _, v := range h.Values(headerUserProfileID) {
		if !validUserProfileID(v) {
			return kit.InvalidRequest(headerUserProfileID + " header must be a valid user profile ID (uprof_ followed by 1 to 64 letters or digits)")
		}
	}
	return nil
}

// withUserProfile makes the POST routes that take the header (create,
// count_tokens, batch create) check it before their handler runs.
func withUserProfile(routes []kit.Route) []kit.Route {
	for i, rt := range routes {
		if rt.Method != http.MethodPost || (rt.Path != pathMessages && rt.Path != pathCountTokens && rt.Path != pathBatches) {
			continue
		}
		handle := rt.Handle
		routes[i].Handle = func(c *kit.Call) error {
			if err := checkUserProfile(c.R.Header); err != nil {
				return err
			}
			return handle(c)
		}
	}
	return routes
}
