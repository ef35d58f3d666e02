package pipeline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/option"
)

// A call with RetryOnlyUnsent is retried when no connection could be made:
// the request never left. (The cases where it did are tested end to end by
// the message batches' tests.)
func TestRetryOnlyUnsentRetriesDialErrors(t *testing.T) {
	var dials atomic.Int32
	refuse := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}}
	p, err := New([]option.Option{
		option.WithBaseURL("http://127.0.0.1:1"), option.WithAPIKey("k"), option.WithInsecureHTTP(),
		option.WithHTTPClient(&http.Client{Transport: refuse}), option.WithMaxRetries(2),
		option.WithMaxRetryWait(time.Millisecond),
	})
	require.NoError(t, err)
	req := NewRequest(http.MethodPost, "/v1/things")
	req.Body = map[string]int{"a": 1}
	req.RetryOnlyUnsent = true
	_, err = Do[map[string]any](context.Background(), p, req, nil)
	require.Error(t, err)
	require.Equal(t, int32(3), dials.Load(), "the first attempt and two retries")
}

func TestUnsent(t *testing.T) {
	require.True(t, unsent(&http.Response{StatusCode: http.StatusTooManyRequests}, nil))
	for _, s := range []int{http.StatusRequestTimeout, http.StatusConflict, http.StatusInternalServerError, http.StatusBadGateway} {
		require.False(t, unsent(&http.Response{StatusCode: s}, nil), s)
	}
	require.True(t, unsent(nil, &net.OpError{Op: "dial", Err: errors.New("refused")}))
	require.False(t, unsent(nil, &net.OpError{Op: "read", Err: errors.New("reset")}))
	require.False(t, unsent(nil, &attemptTimeoutError{after: time.Second}))
}
