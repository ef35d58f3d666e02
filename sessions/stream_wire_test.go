package sessions_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestStreamWireEdges reads a stream whose bytes the test writes itself:
// pings with and without data and events without an `event:` line are
// skipped, an event that cannot be decoded is reported and the stream goes
// on, and a final event without its blank line is not delivered.
func TestStreamWireEdges(t *testing.T) {
	body := "event: ping\n\n" +
		"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
		"data: {\"id\":\"sevt_0\",\"type\":\"agent.message\",\"content\":[]}\n\n" +
		"event: agent.message\ndata: null\n\n" +
		"event: agent.message\ndata: {\"id\":\"sevt_2\",\n" +
		"data: \"processed_at\":null,\"type\":\"agent.message\",\"content\":[]}\n\n" + // one event on two data lines
		"event: plan.revised\r\ndata: {\"id\":\"sevt_3\",\"type\":\"plan.revised\"}\r\n\r\n" +
		"event: agent.thinking\ndata: {\"id\":\"sevt_4\",\"type\":\"agent.thinking\"}\n"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/sessions/sesn_wire/events/stream":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, body)
		case "/v1/sessions/sesn_html/events/stream":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>proxy</html>")
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"type":"error","error":{"type":"api_error","message":"down"},"request_id":"req_1"}`)
		}
	}))
	defer ts.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(ts.URL), option.WithAPIKey("key"), option.WithMaxRetries(0))
	require.NoError(t, err)
	defer client.Close()

	st, err := client.Sessions.Events.Stream(ctx, "sesn_wire", sessions.StreamParams{NoReconnect: true})
	require.NoError(t, err)
	defer st.Close()
	var got []sessions.Event
	var errs []error
	for ev, err := range st.Events() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, ev)
	}
	require.Equal(t, []string{"sevt_2", "sevt_3"}, eventIDs(got))
	require.IsType(t, &sessions.UnknownEvent{}, got[1])
	require.Len(t, errs, 1)
	require.ErrorContains(t, errs[0], `decoding "agent.message" event`)

	_, err = client.Sessions.Events.Stream(ctx, "sesn_html", sessions.StreamParams{NoReconnect: true})
	require.ErrorContains(t, err, "expected an event stream")
	_, err = client.Sessions.Events.Stream(ctx, "sesn_down", sessions.StreamParams{NoReconnect: true})
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 503, apiErr.StatusCode)
	require.Equal(t, "down", apiErr.Message)
}
