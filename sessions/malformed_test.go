package sessions_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// A resource the SDK cannot decode fails the call like any other body it
// cannot use: an *apierror.ResponseError with the status and request id.
func TestMalformedResourceIsAResponseError(t *testing.T) {
	const bad = `{"type":"file","id":5,"file_id":"file_1","mount_path":"/m"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("request-id", "req_malformed")
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte(`{"data":[` + bad + `],"next_page":null}`))
			return
		}
		_, _ = w.Write([]byte(bad))
	}))
	defer srv.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	require.NoError(t, err)
	defer client.Close()
	ctx := context.Background()

	_, listErr := client.Sessions.Resources.List(ctx, "sesn_1", sessions.ResourceListParams{})
	_, getErr := client.Sessions.Resources.Get(ctx, "sesn_1", "sesrsc_1")
	for name, err := range map[string]error{"list": listErr, "get": getErr} {
		var re *apierror.ResponseError
		require.True(t, errors.As(err, &re), "%s: %v", name, err)
		require.ErrorIs(t, err, apierror.ErrMalformedResponse, name)
		require.Equal(t, http.StatusOK, re.StatusCode, name)
		require.Equal(t, "req_malformed", re.RequestID, name)
	}
}
