package apierror_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
)

func TestMalformedResponse(t *testing.T) {
	h := http.Header{"Request-Id": {"req_1"}, "Set-Cookie": {"CANARYcookie"}}
	cause := json.Unmarshal([]byte("x"), new(any))
	var syntax *json.SyntaxError
	body := []byte(strings.Repeat("é", 200) + "\xff" + strings.Repeat("x", 1000))
	e := apierror.MalformedResponse("GET", "/v1/models/m", 200, h, body, cause)
	require.ErrorIs(t, e, apierror.ErrMalformedResponse)
	require.False(t, errors.Is(e, apierror.ErrResponseTooLarge))
	require.ErrorAs(t, e, &syntax)
	require.Equal(t, "req_1", e.RequestID)
	require.LessOrEqual(t, len(e.Excerpt), 256)
	require.True(t, utf8.ValidString(e.Excerpt))
	require.True(t, strings.HasPrefix(e.Excerpt, "éé"))
	require.Equal(t, "agentplatform: GET /v1/models/m: 200 response body does not decode: invalid character 'x' looking for beginning of value (request_id req_1)", e.Error())
	require.NotContains(t, e.Error(), "CANARYcookie")

	// Invalid bytes only: replaced, and still within the bound.
	e = apierror.MalformedResponse("GET", "/p", 200, nil, []byte(strings.Repeat("\xff", 1000)), cause)
	require.LessOrEqual(t, len(e.Excerpt), 256)
	require.True(t, utf8.ValidString(e.Excerpt))
	require.Empty(t, e.RequestID)
}

func TestResponseTooLarge(t *testing.T) {
	e := apierror.ResponseTooLarge("POST", "/v1/messages", 200, http.Header{"Request-Id": {"req_2"}}, 1024)
	require.ErrorIs(t, e, apierror.ErrResponseTooLarge)
	require.False(t, errors.Is(e, apierror.ErrMalformedResponse))
	require.Nil(t, errors.Unwrap(e))
	require.Equal(t, "agentplatform: POST /v1/messages: 200 response body is larger than the limit of 1024 bytes "+
		"(option.WithMaxResponseSize) (request_id req_2)", e.Error())
}

func TestRedirectError(t *testing.T) {
	e := &apierror.RedirectError{Method: "GET", Path: "/v1/models", StatusCode: 302, Origin: "http://evil.example.test",
		Err: apierror.ErrInsecureHTTP}
	require.ErrorIs(t, e, apierror.ErrInsecureHTTP)
	require.False(t, errors.Is(e, apierror.ErrRedirectBody))
	require.Equal(t, "agentplatform: GET /v1/models: refused to follow a 302 redirect to http://evil.example.test: "+
		"refusing to send credentials over plain HTTP to a host that is not loopback; use https, or option.WithInsecureHTTP",
		e.Error())
	e.Err = apierror.ErrRedirectBody
	require.ErrorIs(t, e, apierror.ErrRedirectBody)
	require.False(t, errors.Is(e, apierror.ErrInsecureHTTP))
}
