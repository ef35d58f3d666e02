package apierror_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

func TestFromResponse(t *testing.T) {
	body := []byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"},"request_id":"req_body"}`)
	e := apierr.FromResponse("POST", "/v1/messages", 429, http.Header{"Request-Id": {"req_header"}}, body)
	require.Equal(t, apierror.TypeRateLimit, e.Type)
	require.Equal(t, "slow down", e.Message)
	require.Equal(t, "req_body", e.RequestID, "the body's id wins")
	require.True(t, e.Temporary())
	require.ErrorIs(t, e, apierror.ErrRateLimited)

	for _, tc := range []struct {
		status int
		body   string
		typ    apierror.Type
		is     error
	}{
		{502, "<html>bad gateway</html>", apierror.TypeAPI, apierror.ErrServer},
		{503, "", apierror.TypeAPI, apierror.ErrServer},
		{529, "overloaded", apierror.TypeOverloaded, apierror.ErrOverloaded},
		{404, `{"unexpected":"shape"}`, apierror.TypeNotFound, apierror.ErrNotFound},
		{401, `{"type":"error","error":{"type":"","message":""}}`, apierror.TypeAuthentication, apierror.ErrAuthentication},
		{418, "teapot", "", nil},
	} {
		e := apierr.FromResponse("GET", "/x", tc.status, http.Header{"Request-Id": {"req_h"}}, []byte(tc.body))
		require.Equal(t, tc.typ, e.Type, "status %d", tc.status)
		require.Equal(t, "req_h", e.RequestID)
		require.Equal(t, tc.body, string(e.Body))
		if tc.is != nil {
			require.ErrorIs(t, fmt.Errorf("wrapped: %w", e), tc.is)
		}
	}
	// An unknown type from a newer server is kept, and matched by status.
	e = apierr.FromResponse("GET", "/x", 400, nil, []byte(`{"type":"error","error":{"type":"quota_exceeded_error","message":"m"}}`))
	require.Equal(t, apierror.Type("quota_exceeded_error"), e.Type)
	require.ErrorIs(t, e, apierror.ErrInvalidRequest)

	// A 409 is a conflict whatever its type, and still an invalid request
	// by type; nothing else is a conflict, a local refusal included.
	e = apierr.FromResponse("POST", "/v1/agents/a", 409, nil, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"stale"}}`))
	require.ErrorIs(t, fmt.Errorf("wrapped: %w", e), apierror.ErrConflict)
	require.ErrorIs(t, e, apierror.ErrInvalidRequest)
	require.Equal(t, "agentplatform: conflict", apierror.ErrConflict.Error())
	require.NotErrorIs(t, apierr.FromResponse("GET", "/x", 400, nil, nil), apierror.ErrConflict)
	require.NotErrorIs(t, &apierror.ValidationError{Field: "f", Rule: "r"}, apierror.ErrConflict)
}

func TestValidationError(t *testing.T) {
	err := fmt.Errorf("calling: %w", &apierror.ValidationError{Field: "limit", Rule: "must be between 1 and 1000"})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.NotErrorIs(t, err, apierror.ErrNotFound)
	var v *apierror.ValidationError
	require.True(t, errors.As(err, &v))
	require.Equal(t, "agentplatform: invalid parameter limit: must be between 1 and 1000", v.Error())
}

func TestFromStreamEvent(t *testing.T) {
	e := apierr.FromStreamEvent("GET", "/v1/sessions/s/events/stream",
		[]byte(`{"type":"error","error":{"type":"overloaded_error","message":"busy"},"request_id":"req_1"}`))
	require.Equal(t, 529, e.StatusCode)
	require.Equal(t, "busy", e.Message)
	require.Equal(t, "req_1", e.RequestID)
	require.ErrorIs(t, e, apierror.ErrOverloaded)
	require.True(t, e.Temporary())

	e = apierr.FromStreamEvent("GET", "/x", []byte(`not json`))
	require.Equal(t, apierror.TypeAPI, e.Type)
	require.Equal(t, 500, e.StatusCode)
	require.Equal(t, "not json", string(e.Body))
}

func TestTemporaryFollowsShouldRetry(t *testing.T) {
	conflict := apierr.FromResponse("POST", "/x", 409, http.Header{"X-Should-Retry": {"false"}}, nil)
	require.False(t, conflict.Temporary(), "a state conflict cannot be cured by retrying")
	inFlight := apierr.FromResponse("POST", "/x", 409, http.Header{"X-Should-Retry": {"true"}}, nil)
	require.True(t, inFlight.Temporary())
	require.True(t, apierr.FromResponse("POST", "/x", 409, nil, nil).Temporary())
	require.True(t, apierr.FromResponse("POST", "/x", 400, http.Header{"X-Should-Retry": {"true"}}, nil).Temporary())
}
