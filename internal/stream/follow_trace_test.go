package stream

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// reconnect is one call of Follow.Reconnected.
type reconnect struct {
	cause            error
	missed, attempts int
}

// TestFollowReportsReconnections: every drop the walk gets past is
// reported once, with its cause and the events history made up for.
func TestFollowReportsReconnections(t *testing.T) {
	live := &fakeLive{total: 100, cutAfter: 30, gap: 5, overlap: 3}
	fl := newFollow(live)
	var got []reconnect
	fl.Reconnected = func(cause error, missed, attempts int) { got = append(got, reconnect{cause, missed, attempts}) }
	first, _ := live.open(context.Background())
	for _, err := range fl.Events(context.Background(), first, testEvent{}, false) {
		require.NoError(t, err)
	}
	require.Len(t, got, live.opens-1, "one report per new connection")
	for _, r := range got {
		require.ErrorIs(t, r.cause, io.ErrUnexpectedEOF, "the read error that broke the connection")
		require.Equal(t, live.gap+live.overlap, r.missed)
		require.Equal(t, 1, r.attempts)
	}
}

// TestFollowReportsACleanEnd: a connection the server ended cleanly is
// replaced too; the report then has no cause.
func TestFollowReportsACleanEnd(t *testing.T) {
	fl := &Follow[testEvent]{
		Source: src, Decode: decodeTest, Key: func(e testEvent) string { return e.ID },
		Final: func(e testEvent) bool { return e.Type == "session.status_terminated" },
		Open: func(context.Context) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("event: session.status_terminated\ndata: {\"id\":\"end\"}\n\n")), nil
		},
		Since: func(context.Context, testEvent, bool) ([]testEvent, error) { return nil, nil },
	}
	var got []reconnect
	fl.Reconnected = func(cause error, missed, attempts int) { got = append(got, reconnect{cause, missed, attempts}) }
	for _, err := range fl.Events(context.Background(), io.NopCloser(strings.NewReader("")), testEvent{}, false) {
		require.NoError(t, err)
	}
	require.Equal(t, []reconnect{{nil, 0, 1}}, got)
}

// endingBody records how the walk told it the stream ended on it.
type endingBody struct {
	io.Reader
	finished, abandoned, closed bool
}

func (b *endingBody) Finish()      { b.finished = true }
func (b *endingBody) Abandon()     { b.abandoned = true }
func (b *endingBody) Close() error { b.closed = true; return nil }

// TestFollowTellsTheBodyHowTheStreamEnded: a final event finishes the
// body the walk ends on; a consumer that leaves abandons it.
func TestFollowTellsTheBodyHowTheStreamEnded(t *testing.T) {
	const events = "event: agent.message\ndata: {\"id\":\"e1\"}\n\n" +
		"event: session.status_terminated\ndata: {\"id\":\"end\"}\n\n"
	fl := &Follow[testEvent]{
		Source: src, Decode: decodeTest, Key: func(e testEvent) string { return e.ID },
		Final: func(e testEvent) bool { return e.Type == "session.status_terminated" },
	}

	body := &endingBody{Reader: strings.NewReader(events)}
	for _, err := range fl.Events(context.Background(), body, testEvent{}, false) {
		require.NoError(t, err)
	}
	require.Equal(t, endingBody{Reader: body.Reader, finished: true, closed: true}, *body)

	body = &endingBody{Reader: strings.NewReader(events)}
	for range fl.Events(context.Background(), body, testEvent{}, false) {
		break
	}
	require.Equal(t, endingBody{Reader: body.Reader, abandoned: true, closed: true}, *body)
}
