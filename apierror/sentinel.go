package apierror

// Sentinels for errors.Is. Each matches an *Error by its type or, when the
// body named no type, by its status; ErrInvalidRequest also matches a
// *ValidationError, since a locally refused parameter is an invalid request
// that was never sent. ErrConflict matches by status alone: the API words
// a 409 (a stale version, a session that is busy or archived, a tool call
// already answered) as an invalid_request_error, which ErrInvalidRequest
// matches too.
var (
	ErrConflict       error = &sentinel{status: 409, name: "conflict"}
	ErrInvalidRequest error = &sentinel{typ: TypeInvalidRequest, status: 400}
	ErrAuthentication error = &sentinel{typ: TypeAuthentication, status: 401}
	ErrPermission     error = &sentinel{typ: TypePermission, status: 403}
	ErrNotFound       error = &sentinel{typ: TypeNotFound, status: 404}
	ErrRateLimited    error = &sentinel{typ: TypeRateLimit, status: 429}
	ErrOverloaded     error = &sentinel{typ: TypeOverloaded, status: 529}
	ErrServer         error = &sentinel{typ: TypeAPI, status: 500}
)

type sentinel struct {
	typ    Type
	status int
	name   string // for a sentinel without a type
}

func (s *sentinel) Error() string {
	if s.typ == "" {
		return "agentplatform: " + s.name
	}
	return "agentplatform: " + string(s.typ)
}

func (s *sentinel) matches(e *Error) bool {
	if s.typ == "" {
		return e.StatusCode == s.status
	}
	if e.Type == s.typ {
		return true
	}
	if s.typ == TypeAPI {
		return e.StatusCode >= 500 && e.StatusCode != 529 && e.Type != TypeOverloaded
	}
	return e.StatusCode == s.status
}
