package apierror

// Sentinels for errors.Is. Each matches an *Error by its type or, when the
// body named no type, by its status; ErrInvalidRequest also matches a
// *ValidationError, since a locally refused parameter is an invalid request
// that was never sent.
var (
	ErrInvalidRequest error = &sentinel{TypeInvalidRequest, 400}
	ErrAuthentication error = &sentinel{TypeAuthentication, 401}
	ErrPermission     error = &sentinel{TypePermission, 403}
	ErrNotFound       error = &sentinel{TypeNotFound, 404}
	ErrRateLimited    error = &sentinel{TypeRateLimit, 429}
	ErrOverloaded     error = &sentinel{TypeOverloaded, 529}
	ErrServer         error = &sentinel{TypeAPI, 500}
)

type sentinel struct {
	typ    Type
	status int
}

func (s *sentinel) Error() string { return "agentplatform: " + string(s.typ) }

func (s *sentinel) matches(e *Error) bool {
	if e.Type == s.typ {
		return true
	}
	if s.typ == TypeAPI {
		return e.StatusCode >= 500 && e.StatusCode != 529 && e.Type != TypeOverloaded
	}
	return e.StatusCode == s.status
}
