package reftest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// The checks of a refused call that the packages' tests share; one home, so
// that they cannot drift apart.

// RequireAPIError checks that err is an *apierror.Error with status and
// type whose message contains message.
func RequireAPIError(tb testing.TB, err error, status int, typ apierror.Type, message string) {
	tb.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(tb, err, &apiErr)
	require.Equal(tb, status, apiErr.StatusCode, apiErr.Message)
	require.Equal(tb, typ, apiErr.Type, apiErr.Message)
	require.Contains(tb, apiErr.Message, message)
}

// RequireInvalid checks a 400 invalid_request_error.
func RequireInvalid(tb testing.TB, err error, message string) {
	tb.Helper()
	RequireAPIError(tb, err, 400, apierror.TypeInvalidRequest, message)
	require.ErrorIs(tb, err, apierror.ErrInvalidRequest)
}

// RequireConflict checks a 409 conflict_error refusing a state change,
// which is not worth retrying. A conflict is not an invalid request: the
// same request could succeed against another state.
func RequireConflict(tb testing.TB, err error, message string) {
	tb.Helper()
	RequireAPIError(tb, err, 409, apierror.TypeConflict, message)
	require.ErrorIs(tb, err, apierror.ErrConflict)
	require.NotErrorIs(tb, err, apierror.ErrInvalidRequest)
}

// RequireNotFound checks a 404 not_found_error.
func RequireNotFound(tb testing.TB, err error, message string) {
	tb.Helper()
	RequireAPIError(tb, err, 404, apierror.TypeNotFound, message)
	require.ErrorIs(tb, err, apierror.ErrNotFound)
}

// RequireLocal checks a refusal by the SDK itself, before sending, that
// names field; the caller checks that nothing was sent.
func RequireLocal(tb testing.TB, err error, field string) {
	tb.Helper()
	var verr *apierror.ValidationError
	require.ErrorAs(tb, err, &verr)
	require.Equal(tb, field, verr.Field, verr.Error())
	require.ErrorIs(tb, err, apierror.ErrInvalidRequest)
}
