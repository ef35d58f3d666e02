package apierror_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

func TestErrorDetails(t *testing.T) {
	body := []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"m",` +
		`"details":{"error_code":"tool_name_conflict","tool_name":"get_weather","future":{"a":1}}},"request_id":"req_1"}`)
	e := apierr.FromResponse("POST", "/v1/messages", 400, nil, body)
	require.Equal(t, "tool_name_conflict", e.ErrorCode)
	require.JSONEq(t, `{"error_code":"tool_name_conflict","tool_name":"get_weather","future":{"a":1}}`, string(e.Details),
		"members the SDK does not know are kept")
	require.ErrorIs(t, e, apierror.ErrInvalidRequest)

	// A code the SDK has never heard of is kept as it is.
	e = apierr.FromResponse("GET", "/x", 409, nil,
		[]byte(`{"type":"error","error":{"type":"conflict_error","message":"m","details":{"error_code":"brand_new_code"}}}`))
	require.Equal(t, "brand_new_code", e.ErrorCode)

	for _, tc := range []struct{ details, code, raw string }{
		{``, "", ""},
		{`,"details":null`, "", ""},
		{`,"details":"text"`, "", ""},
		{`,"details":{"error_code":7,"x":true}`, "", `{"error_code":7,"x":true}`},
		{`,"details":{"x":true}`, "", `{"x":true}`},
	} {
		e := apierr.FromResponse("GET", "/x", 400, nil,
			[]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"m"`+tc.details+`}}`))
		require.Equal(t, tc.code, e.ErrorCode, tc.details)
		require.Equal(t, tc.raw, string(e.Details), tc.details)
		require.Equal(t, "m", e.Message, tc.details)
	}

	// An error event of a stream carries details the same way.
	e = apierr.FromStreamEvent("POST", "/v1/messages",
		[]byte(`{"type":"error","error":{"type":"overloaded_error","message":"m","details":{"error_code":"c"}}}`))
	require.Equal(t, "c", e.ErrorCode)
}

func TestConflictSentinels(t *testing.T) {
	for _, tc := range []struct {
		status int
		typ    apierror.Type
		is     []error
		isNot  []error
	}{
		{409, apierror.TypeConflict, []error{apierror.ErrConflict},
			[]error{apierror.ErrMemoryPreconditionFailed, apierror.ErrMemoryPathConflict, apierror.ErrInvalidRequest}},
		{409, apierror.TypeMemoryPreconditionFailed, []error{apierror.ErrConflict, apierror.ErrMemoryPreconditionFailed},
			[]error{apierror.ErrMemoryPathConflict, apierror.ErrInvalidRequest}},
		{409, apierror.TypeMemoryPathConflict, []error{apierror.ErrConflict, apierror.ErrMemoryPathConflict},
			[]error{apierror.ErrMemoryPreconditionFailed, apierror.ErrInvalidRequest}},
		// A 409 of another type (an older server words some conflicts as
		// invalid_request_error) is still a conflict, but neither memory
		// error.
		{409, apierror.TypeInvalidRequest, []error{apierror.ErrConflict, apierror.ErrInvalidRequest},
			[]error{apierror.ErrMemoryPreconditionFailed, apierror.ErrMemoryPathConflict}},
	} {
		body := fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":"m"}}`, tc.typ)
		e := apierr.FromResponse("POST", "/x", tc.status, http.Header{}, []byte(body))
		require.Equal(t, tc.typ, e.Type)
		w := fmt.Errorf("wrapped: %w", e)
		for _, s := range tc.is {
			require.ErrorIs(t, w, s, "%s", tc.typ)
		}
		for _, s := range tc.isNot {
			require.NotErrorIs(t, w, s, "%s", tc.typ)
		}
		if tc.typ == apierror.TypeInvalidRequest {
			continue
		}
		// As an error event of a stream, without a status, the type
		// stands for a 409.
		ev := apierr.FromStreamEvent("POST", "/x", []byte(body))
		require.Equal(t, 409, ev.StatusCode, "%s", tc.typ)
		for _, s := range tc.is {
			require.ErrorIs(t, ev, s, "stream %s", tc.typ)
		}
	}
}
