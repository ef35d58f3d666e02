package sessions

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// The engine publishes previews while it holds the server's lock, so a
// subscriber that stops reading must cost the producer nothing: no wait at
// all, however full its queue. In a synctest bubble time moves only when
// every goroutine is blocked, so any wait shows up as elapsed time.
func TestPublishNeverWaitsForASubscriber(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFeed(new([]*sessionEvent))
		stalled := f.subscribe(previewMessage)
		delta := preview{typ: "event_delta", data: previewDelta("sevt_1", strings.Repeat("x", 64<<10))}
		start := time.Now()
		for range 2 * maxPendingPreviewBytes / len(delta.data) {
			f.publish(previewMessage, []preview{delta})
		}
		if waited := time.Since(start); waited != 0 {
			t.Fatalf("the producer waited %v for a subscriber that does not read", waited)
		}
		if !stalled.lagging || stalled.pending > maxPendingPreviewBytes {
			t.Fatalf("the stalled subscriber holds %d bytes (lagging %v): want its queue full and shed", stalled.pending, stalled.lagging)
		}

		// Once it has taken everything, it gets previews again.
		for {
			frames, _, _ := f.take(stalled, make([]frame, 0, 64))
			if len(frames) == 0 {
				break
			}
		}
		f.publish(previewMessage, []preview{delta})
		if stalled.lagging || len(stalled.previews) != 1 {
			t.Fatalf("after draining: lagging %v, %d previews queued; want the new preview delivered", stalled.lagging, len(stalled.previews))
		}
	})
}
