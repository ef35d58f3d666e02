package apierror

import "slices"

// Sentinels for errors.Is. Each matches an *Error by its type or, when the
// body named no type, by its status; ErrInvalidRequest also matches a
// *ValidationError, since a locally refused parameter is an invalid request
// that was never sent. ErrConflict matches any 409 and any of the conflict
// types: the API answers every 409 (a stale version, a session that is busy
// or archived, a tool call already answered, an Idempotency-Key still in
// flight) with conflict_error, or with one of the two memory types that
// refine it. Such an error is not ErrInvalidRequest: the request was well
// formed but met the resource in another state. A 409 of any other type (an
// older server's invalid_request_error) is still a conflict, and matches
// ErrInvalidRequest by its type as well. The memory sentinels match by type
// alone, since other 409s are not theirs.
var (
	ErrConflict                 error = &sentinel{status: 409, name: "conflict", also: []Type{TypeConflict, TypeMemoryPreconditionFailed, TypeMemoryPathConflict}}
	ErrMemoryPreconditionFailed error = &sentinel{typ: TypeMemoryPreconditionFailed, typeOnly: true}
	ErrMemoryPathConflict       error = &sentinel{typ: TypeMemoryPathConflict, typeOnly: true}
	ErrInvalidRequest           error = &sentinel{typ: TypeInvalidRequest, status: 400}
	ErrAuthentication           error = &sentinel{typ: TypeAuthentication, status: 401}
	ErrPermission               error = &sentinel{typ: TypePermission, status: 403}
	ErrNotFound                 error = &sentinel{typ: TypeNotFound, status: 404}
	ErrRateLimited              error = &sentinel{typ: TypeRateLimit, status: 429}
	ErrOverloaded               error = &sentinel{typ: TypeOverloaded, status: 529}
	ErrServer                   error = &sentinel{typ: TypeAPI, status: 500}
)

type sentinel struct {
	typ      Type
	status   int
	name     string // for a sentinel without a type
	also     []Type // further types it matches, whatever the status
	typeOnly bool   // match by typ alone, never by status
}

func (s *sentinel) Error() string {
	if s.typ == "" {
		return "agentplatform: " + s.name
	}
	return "agentplatform: " + string(s.typ)
}

func (s *sentinel) matches(e *Error) bool {
	if slices.Contains(s.also, e.Type) {
		return true
	}
	if s.typ == "" {
		return e.StatusCode == s.status
	}
	if e.Type == s.typ {
		return true
	}
	if s.typeOnly {
		return false
	}
	if s.typ == TypeAPI {
		return e.StatusCode >= 500 && e.StatusCode != 529 && e.Type != TypeOverloaded
	}
	return e.StatusCode == s.status
}
