package sessions_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// firehose serves a stream of n agent.message events of about 1 KiB,
// generated as they are written, then session.status_terminated; the
// history is empty. Nothing is kept: the server holds one event at a time.
func firehose(n int) http.Handler {
	filler := strings.Repeat("lorem ipsum ", 80)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/sessions/sesn_big/events":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"data":[],"next_page":null}`)
			return
		case "/v1/sessions/sesn_big/events/stream":
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		flusher := w.(http.Flusher)
		buf := make([]byte, 0, 2048)
		for i := 1; i <= n; i++ {
			buf = append(buf[:0], "event: agent.message\ndata: {\"id\":\"sevt_"...)
			buf = strconv.AppendInt(buf, int64(i), 10)
			buf = append(buf, `","processed_at":"2026-03-15T10:00:00.000000Z","type":"agent.message","content":[{"type":"text","text":"`...)
			buf = append(buf, filler...)
			buf = append(buf, "\"}]}\n\n"...)
			if _, err := w.Write(buf); err != nil {
				return
			}
			if i%1000 == 0 {
				flusher.Flush()
			}
		}
		fmt.Fprint(w, "event: session.status_terminated\ndata: {\"id\":\"sevt_end\",\"processed_at\":\"2026-03-15T10:00:01.000000Z\",\"type\":\"session.status_terminated\"}\n\n")
	})
}

// TestStreamMemoryStaysFlat reads a stream of 100,000 events of about
// 1 KiB, with reconnection on (the default), from a handler that makes them
// as it writes them; the heap in use, sampled during the read, stays under
// a fixed bound (all of them would take about 100 MiB).
func TestStreamMemoryStaysFlat(t *testing.T) {
	const events = 100_000
	ts := httptest.NewServer(firehose(events))
	defer ts.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(ts.URL), option.WithAPIKey("key"))
	require.NoError(t, err)
	defer client.Close()

	st, err := client.Sessions.Events.Stream(ctx, "sesn_big", sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	const bound = 32 << 20 // 100k events of 1 KiB would be about 100 MiB
	var peak uint64
	n := 0
	for ev, err := range st.Events() {
		require.NoError(t, err)
		n++
		if n <= events {
			msg, ok := ev.(*sessions.AgentMessageEvent)
			require.True(t, ok, "%T", ev)
			require.Equal(t, "sevt_"+strconv.Itoa(n), msg.ID)
		}
		if n%5000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			require.Less(t, ms.HeapInuse, base+bound, "heap in use after %d events", n)
		}
	}
	require.Equal(t, events+1, n, "every message, then the terminating event")
	t.Logf("heap in use: %d KiB at the start, %d KiB at the peak", base>>10, peak>>10)
}
