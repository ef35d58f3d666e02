package refserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Sends, lists and streams on one session from several goroutines (run
// with -race): every stream sees the whole log, in log order.

func TestConcurrentSendsAndStreams(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	const senders, perSender, readers = 6, 5, 4
	var streams []*sseStream
	for i := range readers {
		query := ""
		if i%2 == 0 {
			query = "?event_deltas=agent.message&event_deltas=agent.thinking"
		}
		streams = append(streams, f.stream(t, sid, query))
	}
	f.script(t, sid, []rs.Step{rs.Firehose(200)})
	var wg sync.WaitGroup
	errs := make(chan error, senders*perSender*2)
	post := func(path, body string) {
		req, _ := http.NewRequest("POST", f.url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+f.seed.APIKey)
		req.Header.Set("vendor-workspace-id", f.seed.DefaultWorkspaceID)
		req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			errs <- err
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			errs <- fmt.Errorf("%s: %d %s", path, res.StatusCode, b)
		}
	}
	for g := range senders {
		wg.Go(func() {
			for i := range perSender {
				post(eventsPath(sid), `{"events":[`+msgEvent(fmt.Sprintf("m%d-%d", g, i))+`]}`)
				if i%2 == 0 { // readers of state meanwhile
					res, err := http.Get(f.url + "/v1/models")
					if err == nil {
						res.Body.Close()
					}
				}
			}
		})
	}
	wg.Go(func() {
		for range 10 {
			req, _ := http.NewRequest("GET", f.url+eventsPath(sid), nil)
			req.Header.Set("Authorization", "Bearer "+f.seed.APIKey)
			req.Header.Set("vendor-workspace-id", f.seed.DefaultWorkspaceID)
			req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
			if res, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	log := f.srv.SessionEventsForTest(sid)
	if want := 206 + (senders*perSender-1)*8; len(log) != want { // the firehose turn (200 messages + 6), then default turns of 8
		t.Fatalf("log of %d events, want %d", len(log), want)
	}
	for i, s := range streams {
		got := 0
		for got < len(log) {
			fr := s.next(t)
			if strings.HasPrefix(fr.typ, "event_") {
				if i%2 == 1 {
					t.Fatalf("stream %d got a preview it did not ask for", i)
				}
				continue
			}
			if fr.data != string(log[got]) {
				t.Fatalf("stream %d event %d\n%s\nwant\n%s", i, got, fr.data, log[got])
			}
			got++
		}
	}
}
