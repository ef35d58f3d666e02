package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

// fakeLive plays a session whose events keep happening: each connection
// delivers the events recorded after it opened and is cut after cutAfter of
// them; while the client is away, gap more events happen; history, read
// after the new connection opened, already holds overlap of the events the
// new connection will also deliver.
type fakeLive struct {
	total, cutAfter, gap, overlap int
	head                          int // events 1..head exist
	connFrom                      int // first event of the current connection
	opens                         int
}

func (f *fakeLive) sse(from, to int, cut bool) io.ReadCloser {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "event: agent.message\ndata: {\"id\":\"e%d\"}\n\n", i)
	}
	if to >= f.total {
		fmt.Fprintf(&b, "event: session.status_terminated\ndata: {\"id\":\"end\"}\n\n")
	}
	r := io.Reader(strings.NewReader(b.String()))
	if cut {
		r = io.MultiReader(r, errReader{io.ErrUnexpectedEOF})
	}
	return io.NopCloser(r)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (f *fakeLive) open(context.Context) (io.ReadCloser, error) {
	f.opens++
	f.head += f.gap // what happened while the client was away
	from := f.head + 1
	f.connFrom = from
	to := min(f.head+f.cutAfter, f.total)
	body := f.sse(from, to, to < f.total)
	f.head = to
	return body, nil
}

func (f *fakeLive) since(_ context.Context, last testEvent, hasLast bool) ([]testEvent, error) {
	start := 1
	if hasLast {
		fmt.Sscanf(last.ID, "e%d", &start)
		start++
	}
	var out []testEvent
	end := min(f.connFrom-1+f.overlap, f.total) // history was read just after the new connection opened
	for i := start; i <= end; i++ {
		out = append(out, testEvent{"agent.message", fmt.Sprintf("e%d", i)})
	}
	return out, nil
}

func newFollow(f *fakeLive) *Follow[testEvent] {
	return &Follow[testEvent]{
		Source: src, Decode: decodeTest, Open: f.open, Since: f.since,
		Key:   func(e testEvent) string { return e.ID },
		Final: func(e testEvent) bool { return e.Type == "session.status_terminated" },
	}
}

func TestFollowDeliversEveryEventOnceInOrderAcrossCuts(t *testing.T) {
	live := &fakeLive{total: 500, cutAfter: 37, gap: 5, overlap: 3}
	fl := newFollow(live)
	first, _ := live.open(context.Background())
	var got []string
	for ev, err := range fl.Events(context.Background(), first, testEvent{}, false) {
		require.NoError(t, err)
		got = append(got, ev.ID)
	}
	// The first connection opened after 5 events had happened; the stream
	// starts there. Every later event arrives once, in order, then the end.
	var want []string
	for i := 6; i <= 500; i++ {
		want = append(want, fmt.Sprintf("e%d", i))
	}
	want = append(want, "end")
	require.Equal(t, want, got)
	require.Greater(t, live.opens, 10)
}

func TestFollowGivesUpAfterMaxAttempts(t *testing.T) {
	fl := &Follow[testEvent]{
		Source: src, Decode: decodeTest, Key: func(e testEvent) string { return e.ID }, MaxAttempts: 2,
		Open:  func(context.Context) (io.ReadCloser, error) { return nil, errors.New("connection refused") },
		Since: func(context.Context, testEvent, bool) ([]testEvent, error) { return nil, nil },
	}
	var errs []error
	for _, err := range fl.Events(context.Background(), io.NopCloser(strings.NewReader("")), testEvent{}, false) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorContains(t, errs[0], "connection refused")
}

func TestFollowStopsOnPermanentErrorsAndEnded(t *testing.T) {
	notFound := apierr.FromResponse("GET", "/x", 404, nil, nil)
	for _, tc := range []struct {
		err  error
		want error
	}{{notFound, notFound}, {ErrEnded, nil}} {
		opens := 0
		fl := &Follow[testEvent]{
			Source: src, Decode: decodeTest, Key: func(e testEvent) string { return e.ID },
			Open:  func(context.Context) (io.ReadCloser, error) { opens++; return nil, tc.err },
			Since: func(context.Context, testEvent, bool) ([]testEvent, error) { return nil, nil },
		}
		var errs []error
		for _, err := range fl.Events(context.Background(), io.NopCloser(strings.NewReader("")), testEvent{}, false) {
			errs = append(errs, err)
		}
		require.Equal(t, 1, opens, "not retried")
		if tc.want == nil {
			require.Empty(t, errs)
		} else {
			require.Equal(t, []error{tc.want}, errs)
		}
	}
}

// TestFollowEndsWhenTheContextEnds: the context ends while the follower
// waits to reconnect (Open keeps failing): it yields the context's error
// and ends. The context ends the moment something first waits on it
// (cancelOnWait), the wait before a reconnection, rather than after some
// real time that could pass before or after that wait.
func TestFollowEndsWhenTheContextEnds(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx := &cancelOnWait{Context: parent, cancel: cancel}
	fl := &Follow[testEvent]{
		Source: src, Decode: decodeTest, Key: func(e testEvent) string { return e.ID },
		Open: func(context.Context) (io.ReadCloser, error) { return nil, errors.New("down") },
	}
	var errs []error
	for _, err := range fl.Events(ctx, io.NopCloser(strings.NewReader("")), testEvent{}, false) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], context.Canceled)
}

// cancelOnWait is a context cancelled when its Done is first called.
type cancelOnWait struct {
	context.Context
	once   sync.Once
	cancel context.CancelFunc
}

func (c *cancelOnWait) Done() <-chan struct{} {
	c.once.Do(c.cancel)
	return c.Context.Done()
}
