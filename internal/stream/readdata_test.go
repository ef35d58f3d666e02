package stream

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var chatSrc = Source{"POST", "/v1/chat/completions"}

func collectData(t *testing.T, r io.Reader, max int) ([]string, []error) {
	t.Helper()
	var data []string
	var errs []error
	for d, err := range ReadData(r, max, chatSrc) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		data = append(data, string(d))
	}
	return data, errs
}

func TestReadDataYieldsUntypedEventsUntilDone(t *testing.T) {
	body := `data: {"n":1}` + "\n\n" +
		": keep-alive\n\n" + // a comment: not an event
		"event: ping\ndata: {}\n\n" + // typed: belongs to Read
		"event: ping\n\n" + // typed, no data
		"event: message\ndata: {\"n\":2}\n\n" + // the SSE default name counts as untyped
		"data: {\"n\":\ndata: 3}\n\n" + // data split over two lines
		"data: [DONE]\n\n" +
		`data: {"n":4}` + "\n\n" // after [DONE]: never read
	data, errs := collectData(t, strings.NewReader(body), 0)
	require.Empty(t, errs)
	require.Equal(t, []string{`{"n":1}`, `{"n":2}`, "{\"n\":\n3}"}, data)
}

func TestReadDataWithoutDoneIsUnexpectedEOF(t *testing.T) {
	for _, body := range []string{
		`data: {"n":1}` + "\n\n",
		`data: {"error":{"type":"overloaded_error","message":"Overloaded"}}` + "\n\n", // a mid-stream error frame
		`data: {"n":1}` + "\n\ndata: [DONE]\n",                                        // an unterminated final frame is never dispatched
		"",
	} {
		data, errs := collectData(t, strings.NewReader(body), 0)
		require.Len(t, errs, 1, body)
		require.ErrorIs(t, errs[0], io.ErrUnexpectedEOF)
		require.ErrorIs(t, errs[0], ErrNoDone)
		require.Contains(t, errs[0].Error(), "POST /v1/chat/completions")
		require.LessOrEqual(t, len(data), 1)
	}
}

func TestReadDataErrorFrameIsYieldedAsData(t *testing.T) {
	body := `data: {"error":{"type":"overloaded_error","message":"Overloaded"}}` + "\n\n"
	for d, err := range ReadData(strings.NewReader(body), 0, chatSrc) {
		require.NoError(t, err)
		require.Equal(t, `{"error":{"type":"overloaded_error","message":"Overloaded"}}`, string(d))
		break // the consumer stops at the error frame
	}
}

func TestReadDataReadErrorsAndSizeLimit(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: {\"n\":1}\n\n"), errReader{errors.New("connection reset")})
	data, errs := collectData(t, r, 0)
	require.Equal(t, []string{`{"n":1}`}, data)
	require.Len(t, errs, 1)
	require.ErrorContains(t, errs[0], "connection reset")
	require.NotErrorIs(t, errs[0], ErrNoDone)

	big := strings.Repeat("x", 100<<10)
	data, errs = collectData(t, strings.NewReader("data: "+big+"\n\ndata: [DONE]\n\n"), 0)
	require.Empty(t, errs)
	require.Len(t, data[0], len(big))
	_, errs = collectData(t, strings.NewReader("data: "+big+"\n\ndata: [DONE]\n\n"), 64<<10)
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], bufio.ErrTooLong)
}

func TestReadDataBreakingOutStopsReading(t *testing.T) {
	r := &countingReader{r: strings.NewReader(strings.Repeat("data: {}\n\n", 100000))}
	n := 0
	for _, err := range ReadData(r, 0, chatSrc) {
		require.NoError(t, err)
		if n++; n == 3 {
			break
		}
	}
	require.Less(t, r.n, 1<<20)
}
