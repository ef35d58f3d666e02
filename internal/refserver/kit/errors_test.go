package kit

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

// An error with a code is sent with error.details, which the SDK reads
// back as ErrorCode and Details; one without a code has no details member.
func TestWriteErrorDetails(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, "req_1", InvalidField("tools", "Tool names must be unique.").
		WithCode("tool_name_conflict", map[string]any{"tool_name": "get_weather"}))
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.JSONEq(t, `{"type":"error","request_id":"req_1","error":{"type":"invalid_request_error",
		"message":"tools: Tool names must be unique.",
		"details":{"error_code":"tool_name_conflict","tool_name":"get_weather"}}}`, rec.Body.String())

	e := apierr.FromResponse("POST", "/v1/messages", rec.Code, rec.Header(), rec.Body.Bytes())
	require.Equal(t, "tool_name_conflict", e.ErrorCode)
	require.JSONEq(t, `{"error_code":"tool_name_conflict","tool_name":"get_weather"}`, string(e.Details))
	require.ErrorIs(t, e, apierror.ErrInvalidRequest)

	rec = httptest.NewRecorder()
	WriteError(rec, "req_2", NotFound("Workspace `wrkspc_x` not found."))
	require.NotContains(t, rec.Body.String(), "details")
	e = apierr.FromResponse("GET", "/x", rec.Code, rec.Header(), rec.Body.Bytes())
	require.Empty(t, e.ErrorCode)
	require.Nil(t, e.Details)
}

// A conflict_error 409 reaches the SDK as ErrConflict.
func TestWriteErrorConflictType(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, "req_3", StateConflict("busy"))
	e := apierr.FromResponse("POST", "/x", rec.Code, rec.Header(), rec.Body.Bytes())
	require.Equal(t, apierror.TypeConflict, e.Type)
	require.ErrorIs(t, e, apierror.ErrConflict)
	require.False(t, e.Temporary())
}
