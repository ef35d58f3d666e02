// Package apiversion holds the API versions the SDK and the reference
// server know, and what each one changes, in one place: the client's
// local validation and the server's request rules read the same answers.
// docs/api-versions.md describes the differences for users.
//
// A version is a date, YYYY-MM-DD, sent in the vendor-version header. The
// rules of a version hold for every later one until a newer version is
// known here, so a client told to send a version it does not know yet
// checks requests by the newest rules it has, and leaves the rest to the
// server.
package apiversion

import "regexp"

// The versions the platform serves.
const (
	// V20230601 is the first version, and the default of the SDK and of
	// the server when the header is left out.
	V20230601 = "2023-06-01"
	// V20261021 removes the sampling parameters, refuses documents in
	// assistant messages and citations in user messages, and leaves
	// deprecated response fields out.
	V20261021 = "2026-10-21"

	Default = V20230601
)

// Known lists the versions the platform serves, oldest first.
var Known = []string{V20230601, V20261021}

var dateForm = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// WellFormed reports whether v has a version's form, YYYY-MM-DD.
func WellFormed(v string) bool { return dateForm.MatchString(v) }

// Served reports whether the platform serves v.
func Served(v string) bool { return v == V20230601 || v == V20261021 }

// effective is the version whose rules apply to v: the default for an
// empty v (no header sent), else v itself. Versions are dates in one
// form, so they compare as strings.
func effective(v string) string {
	if v == "" {
		return Default
	}
	return v
}

// atLeast reports whether v's rules include those of since.
func atLeast(v, since string) bool { return effective(v) >= since }

// SamplingParams reports whether requests may carry temperature, top_p and
// top_k: until 2026-10-21.
func SamplingParams(v string) bool { return !atLeast(v, V20261021) }

// AssistantDocuments reports whether an assistant message may hold a
// document block directly (a document nested in another block, such as a
// web fetch result, is always allowed): until 2026-10-21.
func AssistantDocuments(v string) bool { return !atLeast(v, V20261021) }

// UserCitations reports whether a text block of a user message, directly
// or inside a search_result block, may carry a non-empty citations list:
// until 2026-10-21. Citations on assistant text, and the citations
// setting of documents and search results, are allowed in every version.
func UserCitations(v string) bool { return !atLeast(v, V20261021) }

// DeprecatedFields reports whether responses still carry the fields a
// newer field replaced (an API key's workspace_id beside its scope): until
// 2026-10-21.
func DeprecatedFields(v string) bool { return !atLeast(v, V20261021) }
