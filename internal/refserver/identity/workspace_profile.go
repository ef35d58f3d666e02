package identity

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// A workspace's user_profile_id (docs/api-choices.md "Workspaces, admin
// API"). The reference server has no user profiles, so it checks only the
// id's form; it stores the id and echoes it. Attaching is write-once: the
// same id again changes nothing, another id or null (removal) is refused,
// and the default workspace cannot have one.

// setUserProfileID applies a create or update body's user_profile_id to w.
func setUserProfileID(w *workspace, v kit.Optional[string]) error {
	if !v.Set {
		return nil
	}
	if v.Null {
		if w.userProfileID != "" {
			return kit.InvalidField("user_profile_id", "cannot be removed once set")
		}
		return nil
	}
	if w.isDefault {
		return kit.InvalidField("user_profile_id", "cannot be set on the default workspace")
	}
	if !kit.HasIDForm(v.Value, "uprof_") {
		return kit.InvalidField("user_profile_id", "must be a user profile id (`uprof_…`)")
	}
	if w.userProfileID != "" && w.userProfileID != v.Value {
		return kit.InvalidField("user_profile_id", "is write-once and cannot be replaced once set")
	}
	w.userProfileID = v.Value
	return nil
}
