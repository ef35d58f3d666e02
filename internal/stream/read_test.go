package stream

import (
	"bufio"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
)

type testEvent struct {
	Type string
	ID   string `json:"id"`
}

func decodeTest(typ string, data []byte) (testEvent, error) {
	e := testEvent{Type: typ}
	return e, json.Unmarshal(data, &e)
}

var src = Source{"GET", "/v1/sessions/sesn_1/events/stream"}

func collect(t *testing.T, body string, max int) ([]testEvent, []error) {
	t.Helper()
	var evs []testEvent
	var errs []error
	for ev, err := range Read(strings.NewReader(body), max, src, decodeTest) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		evs = append(evs, ev)
	}
	return evs, errs
}

func TestReadSkipsPingsAndUntypedEvents(t *testing.T) {
	body := "event: ping\ndata: {}\n\n" +
		"data: {\"id\":\"untyped\"}\n\n" +
		": a comment\n\n" +
		"event: agent.message\ndata: {\"id\":\"sevt_1\"}\n\n" +
		"event: session.status_idle\ndata: {\"id\":\n" + "data: \"sevt_2\"}\n\n" + // data split over two lines
		"event: agent.message\ndata: {\"id\":\"unterminated\"}\n" // no blank line: never dispatched
	evs, errs := collect(t, body, 0)
	require.Empty(t, errs)
	require.Equal(t, []testEvent{{"agent.message", "sevt_1"}, {"session.status_idle", "sevt_2"}}, evs)
}

func TestErrorEventEndsTheStreamWithATypedError(t *testing.T) {
	body := "event: agent.message\ndata: {\"id\":\"sevt_1\"}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"},\"request_id\":\"req_9\"}\n\n" +
		"event: agent.message\ndata: {\"id\":\"after\"}\n\n"
	evs, errs := collect(t, body, 0)
	require.Len(t, evs, 1)
	require.Len(t, errs, 1)
	var apiErr *apierror.Error
	require.ErrorAs(t, errs[0], &apiErr)
	require.Equal(t, "busy", apiErr.Message)
	require.Equal(t, "req_9", apiErr.RequestID)
	require.ErrorIs(t, errs[0], apierror.ErrOverloaded)
}

func TestDecodeErrorsDoNotEndTheStream(t *testing.T) {
	body := "event: agent.message\ndata: {not json}\n\n" +
		"event: agent.message\ndata: {\"id\":\"sevt_2\"}\n\n"
	evs, errs := collect(t, body, 0)
	require.Equal(t, []testEvent{{"agent.message", "sevt_2"}}, evs)
	require.Len(t, errs, 1)
	var de *DecodeError
	require.ErrorAs(t, errs[0], &de)
	require.Equal(t, "agent.message", de.Type)
}

func TestEventSizeLimit(t *testing.T) {
	big := strings.Repeat("x", 200<<10) // beyond go-sse's 64 KiB default
	body := "event: agent.message\ndata: {\"id\":\"" + big + "\"}\n\n"
	evs, errs := collect(t, body, 0)
	require.Empty(t, errs)
	require.Len(t, evs, 1)
	require.Len(t, evs[0].ID, len(big))

	evs, errs = collect(t, body, 64<<10)
	require.Empty(t, evs)
	require.Len(t, errs, 1)
	require.True(t, errors.Is(errs[0], bufio.ErrTooLong), "%v", errs[0])
}

func TestBreakingOutStopsReading(t *testing.T) {
	r := &countingReader{r: strings.NewReader(strings.Repeat("event: a\ndata: {}\n\n", 100000))}
	n := 0
	for _, err := range Read(r, 0, src, decodeTest) {
		require.NoError(t, err)
		if n++; n == 3 {
			break
		}
	}
	require.Less(t, r.n, 1<<20, "reading stopped soon after the loop broke")
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
