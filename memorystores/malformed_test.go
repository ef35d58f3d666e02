package memorystores_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
)

// A listing item the SDK cannot decode fails the call like any other body
// it cannot use: an *apierror.ResponseError with the status and request id.
func TestMalformedListItemIsAResponseError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("request-id", "req_malformed")
		_, _ = w.Write([]byte(`{"data":[{"type":"memory","path":7}],"next_page":null}`))
	}))
	defer srv.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	require.NoError(t, err)
	defer client.Close()

	_, err = client.MemoryStores.Memories.List(context.Background(), "memstore_1", memorystores.MemoryListParams{})
	var re *apierror.ResponseError
	require.True(t, errors.As(err, &re), "%v", err)
	require.ErrorIs(t, err, apierror.ErrMalformedResponse)
	require.Equal(t, http.StatusOK, re.StatusCode)
	require.Equal(t, "req_malformed", re.RequestID)
}
