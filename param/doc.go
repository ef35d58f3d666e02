// Package param holds the small types that request parameters share.
//
// Most optional request fields are plain Go fields with omitzero: the zero
// value means "not sent". Update endpoints also need to tell "leave it alone"
// from "clear it", which JSON spells as an omitted key versus null. Nullable
// carries that third state:
//
//	sessions.UpdateParams{
//		Title:  param.Null[string](),              // "title": null clears the title
//		Budget: param.Value(sessions.Budget{…}),   // replaces the budget
//		// Metadata omitted: left unchanged
//	}
//
// A map of *string does the same per key for metadata patches: a nil value
// deletes the key (Go 1.26: new("value") makes a *string in place).
//
// Secret carries a credential inside a request body, such as a repository's
// authorization token. It marshals to its value, but every fmt verb and
// log/slog print "[redacted]", so params can be printed and logged safely:
//
//	sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: param.Secret(token)}
package param
