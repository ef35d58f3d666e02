package refserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// V3 Stream Events (docs/session-events-wire.md 2.3, 5): framing, previews,
// pings, how streams end, injected cuts, and that nothing outlives a
// connection.

func TestStreamFramingAndPreviews(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.post(t, sid, msgEvent("before")) // not replayed
	before := len(f.log(t, sid))
	s := f.stream(t, sid, "?event_deltas=agent.message&event_deltas[]=agent.thinking")
	if s.header.Get("Content-Type") != "text/event-stream; charset=utf-8" || s.header.Get("Cache-Control") != "no-cache" ||
		!requestIDPattern.MatchString(s.header.Get("request-id")) {
		t.Fatalf("headers %v", s.header)
	}
	f.script(t, sid, []rs.Step{rs.Think("hmm"), rs.SayChunks("Order ", "", "shipped")})
	f.post(t, sid, msgEvent("where"))
	frames := s.until(t, "session.status_idle")
	if got := frameTypes(frames); !slices.Equal(got, []string{"user.message", "session.status_running", "span.model_request_start",
		"event_start", "event_start", "event_delta", "event_delta", "agent.thinking", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle"}) {
		t.Fatalf("frames %q", got)
	}
	log := f.srv.SessionEventsForTest(sid)[before:]
	var persisted []string
	for _, fr := range frames {
		if m := fr.object(t); m["type"] != fr.typ {
			t.Fatalf("event: %s carries type %v", fr.typ, m["type"])
		}
		if !strings.HasPrefix(fr.typ, "event_") {
			persisted = append(persisted, fr.data)
		}
	}
	for i, raw := range log {
		if persisted[i] != string(raw) {
			t.Fatalf("frame %d\n%s\nis not the listed event\n%s", i, persisted[i], raw)
		}
	}
	thinkingID := frames[7].object(t)["id"].(string)
	messageID := frames[8].object(t)["id"].(string)
	want := []string{
		`{"type":"event_start","event":{"type":"agent.thinking","id":"` + thinkingID + `"}}`,
		`{"type":"event_start","event":{"type":"agent.message","id":"` + messageID + `"}}`,
		`{"type":"event_delta","event_id":"` + messageID + `","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"Order "}}}`,
		`{"type":"event_delta","event_id":"` + messageID + `","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"shipped"}}}`,
	}
	for i, w := range want {
		if frames[3+i].data != w {
			t.Fatalf("preview %d\n got %s\nwant %s", i, frames[3+i].data, w)
		}
	}
}

func TestStreamPreviewKinds(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	thinking := f.stream(t, sid, "?event_deltas=agent.thinking&event_deltas=agent.thinking")
	none := f.stream(t, sid, "")
	f.post(t, sid, msgEvent("hi")) // default: Think, Say
	if got := frameTypes(thinking.until(t, "session.status_idle")); slices.Contains(got, "event_delta") || !slices.Contains(got, "event_start") {
		t.Fatalf("thinking only: %q", got)
	}
	if got := frameTypes(none.until(t, "session.status_idle")); slices.Contains(got, "event_start") {
		t.Fatalf("no previews asked: %q", got)
	}
	path := eventsPath(sid) + "/stream"
	wantInvalid(t, f.ma(t, "GET", path+"?event_deltas=agent.tool_use", ""), "event_deltas: must be one of `agent.message`, `agent.thinking`")
	wantInvalid(t, f.ma(t, "GET", path+"?event_deltas[]=", ""), "event_deltas: must be one of `agent.message`, `agent.thinking`")
	many := strings.Repeat("event_deltas=agent.message&", 101)
	wantInvalid(t, f.ma(t, "GET", path+"?"+many, ""), "event_deltas: must have at most 100 items")
	f.stream(t, sid, "?"+strings.Repeat("event_deltas=agent.message&", 99)+"event_deltas=agent.message&x=1&limit=3") // 100, other params ignored
	wantError(t, f.ma(t, "GET", eventsPath("sesn_nope")+"/stream", ""), http.StatusNotFound, "not_found_error", "Session `sesn_nope` not found.")
}

func TestStreamPing(t *testing.T) {
	f := newEvFixture(t, rs.WithPingInterval(20*time.Millisecond))
	sid := f.sessionID(t, "")
	s := f.stream(t, sid, "")
	for range 2 {
		if fr := s.nextFrame(t); fr.typ != "ping" || fr.data != `{"type":"ping"}` {
			t.Fatalf("frame %v, want a ping", fr)
		}
	}
	f.post(t, sid, msgEvent("hi"))
	s.until(t, "session.status_idle")
	if fr := s.nextFrame(t); fr.typ != "ping" {
		t.Fatalf("after the turn: %v", fr)
	}
}

func TestStreamEnds(t *testing.T) {
	f := newEvFixture(t)
	// Deleted: session.deleted, then a clean end; later requests are 404.
	sid := f.sessionID(t, "")
	s := f.stream(t, sid, "")
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+sid, ""))
	if fr := s.next(t); fr.typ != "session.deleted" || len(fr.object(t)) != 3 {
		t.Fatalf("frame %v", fr)
	}
	if err := s.wantEnd(t); err != nil {
		t.Fatalf("end: %v", err)
	}
	wantError(t, f.ma(t, "GET", eventsPath(sid)+"/stream", ""), http.StatusNotFound, "not_found_error", "Session `"+sid+"` not found.")

	// Archived while a turn is held: the interrupt's events, then the end.
	sid = f.sessionID(t, "")
	f.script(t, sid, []rs.Step{rs.Say("never sent"), rs.Hold()})
	s = f.stream(t, sid, "?event_deltas=agent.message")
	f.post(t, sid, msgEvent("go"))
	s.until(t, "event_delta")
	got := wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/archive", ""))
	if got["status"] != "idle" {
		t.Fatalf("archived %v", got)
	}
	if types := frameTypes(s.until(t, "session.status_idle")); !slices.Equal(types, []string{"span.model_request_end", "session.usage", "session.status_idle"}) {
		t.Fatalf("archive frames %q", types)
	}
	if err := s.wantEnd(t); err != nil {
		t.Fatalf("end: %v", err)
	}
	// A new stream on an archived session: 200 and an immediate end.
	if err := f.stream(t, sid, "").wantEnd(t); err != nil {
		t.Fatalf("archived: %v", err)
	}
	wantOK(t, f.ma(t, "GET", eventsPath(sid), "")) // still listed

	// Terminated (a Terminate step): the stream ends right after
	// session.status_terminated; new streams end at once.
	sid = f.sessionID(t, "")
	s = f.stream(t, sid, "")
	f.terminate(t, sid)
	if types := frameTypes(s.until(t, "session.status_terminated")); !slices.Equal(types, []string{"user.message", "session.status_running",
		"span.model_request_start", "span.model_request_end", "session.error", "session.status_terminated"}) {
		t.Fatalf("terminated frames %q", types)
	}
	if err := s.wantEnd(t); err != nil {
		t.Fatalf("end: %v", err)
	}
	if err := f.stream(t, sid, "").wantEnd(t); err != nil {
		t.Fatalf("terminated: %v", err)
	}
}

func TestStreamCutAfter(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	path := eventsPath(sid) + "/stream"
	f.srv.InjectFault(rs.Fault{Path: path, StreamCutAfter: 3, Times: 2})
	first, second := f.stream(t, sid, ""), f.stream(t, sid, "")
	third := f.stream(t, sid, "")
	f.post(t, sid, msgEvent("hi"))
	for _, s := range []*sseStream{first, second} {
		for range 3 {
			s.next(t)
		}
		if err := s.wantEnd(t); err == nil {
			t.Fatal("a cut stream ended cleanly")
		}
	}
	third.until(t, "session.status_idle") // the fault was used up
	settle(t, "the cut streams to unsubscribe", func() bool { return f.srv.SubscribersForTest(sid) == 1 })

	// With a Status: an error frame (the API's error body), then a clean end.
	f.srv.InjectFault(rs.Fault{Path: path, StreamCutAfter: 1, Status: 529})
	s := f.stream(t, sid, "")
	f.post(t, sid, msgEvent("again"))
	s.next(t)
	fr := s.next(t)
	m := fr.object(t)
	if fr.typ != "error" || m["type"] != "error" || mustMarshal(m["error"]) != `{"message":"Overloaded (injected fault)","type":"overloaded_error"}` ||
		!requestIDPattern.MatchString(m["request_id"].(string)) {
		t.Fatalf("error frame %v", fr)
	}
	if err := s.wantEnd(t); err != nil {
		t.Fatalf("end after the error frame: %v", err)
	}
	// On any other request the fault does nothing, and is used up.
	f.srv.InjectFault(rs.Fault{StreamCutAfter: 1})
	wantOK(t, f.do(t, "GET", "/v1/models", ""))
	s = f.stream(t, sid, "")
	f.post(t, sid, msgEvent("uncut"))
	s.until(t, "session.status_idle")
}

// A request cut short by an interrupt emits no buffered event; its span end
// closes the previews (docs/session-events-wire.md 5, rule 5).
func TestStreamInterruptedRequest(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid, []rs.Step{rs.SayChunks("par", "tial"), rs.Hold(), rs.Say("never")})
	s := f.stream(t, sid, "?event_deltas=agent.message")
	f.post(t, sid, msgEvent("go"))
	s.until(t, "event_delta")
	s.until(t, "event_delta")
	f.post(t, sid, interruptAll)
	frames := s.until(t, "session.status_idle")
	if got := frameTypes(frames); !slices.Equal(got, []string{"user.interrupt", "span.model_request_end", "session.usage", "session.status_idle"}) {
		t.Fatalf("frames %q", got)
	}
	end := frames[1].object(t)
	if end["is_error"] != false || end["model_usage"].(map[string]any)["input_tokens"] != float64(1000) {
		t.Fatalf("span end %v", end)
	}
	if stopReasonOf(frames[3].object(t)) != `{"type":"end_turn"}` || len(ofType(f.log(t, sid), "agent.message")) != 0 {
		t.Fatalf("idle %v", frames[3])
	}
	if err := f.srv.ReleaseSession(sid); err == nil {
		t.Fatal("the interrupted turn is still held")
	}
}

// Streams end when their client goes away, and no goroutine of the server
// outlives its connections.
func TestStreamGoroutinesEnd(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	clock := rs.NewManualClock(testStart)
	srv := rs.New(rs.WithClock(clock), rs.WithIDs(rs.SequentialIDs()), rs.WithPingInterval(10*time.Millisecond))
	ts := httptest.NewServer(srv)
	e := &env{srv: srv, url: ts.URL, seed: srv.Seed(), clock: clock}
	f := evFixture{sessionFixture{env: e, agent: e.createAgent(t, "a"), envID: e.createEnvironment(t, `{"name":"e"}`)["id"].(string)}}
	sid := f.sessionID(t, "")
	srv.InjectFault(rs.Fault{Path: eventsPath(sid) + "/stream", StreamCutAfter: 2})
	var streams []*sseStream
	for range 5 {
		streams = append(streams, f.stream(t, sid, "?event_deltas=agent.message"))
	}
	f.post(t, sid, msgEvent("hi"))
	for _, s := range streams[1:] {
		s.until(t, "session.status_idle")
	}
	for _, s := range streams {
		s.close()
	}
	settle(t, "every stream to unsubscribe", func() bool { return srv.SubscribersForTest(sid) == 0 })
	ts.Close()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	leaktest.VerifyNone(t, ignore) // patient: the connections' goroutines end on their own schedule
}

// settle waits for cond, which the server and the runtime reach on their
// own once the test has done its part (a handler noticing that its client
// left, a closed connection's goroutines ending). The minute only turns a
// condition that never comes into a failure rather than a hang; a correct
// run needs a small fraction of it on any machine.
func settle(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still waiting after a minute", what)
		}
	}
}

// Previews are never shed for a reader that keeps up; a stalled reader
// costs the producer nothing, loses previews from some point on (what it
// gets of an event is still a prefix, starting with its event_start), and
// still gets every persisted event in order.
//
// Nothing here depends on the machine's speed. The turn is produced in
// parts, held in between, and the next part is released only once the
// live reader has read every preview so far: its queue never holds more
// than one part, well under the bound, so it is never shed, however slowly
// it reads. The stalled reader reads nothing until the turn has ended, so
// its queue fills once the socket buffers have, and it is marked lagging.
// Once lagging it stays lagging, with a queue that never empties, for the
// rest of the turn: that is read from the server's state after every part.
func TestStreamPreviewBackpressure(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	// Messages of 1000 deltas of 1 KiB, five to a part: a part (under 1200
	// bytes a preview) is well under a subscriber's queue, and the 20
	// messages are more than a queue and the socket buffers hold.
	const parts, perPart, deltas = 4, 5, 1000
	chunks := make([]string, deltas)
	for i := range chunks {
		chunks[i] = strings.Repeat("x", 1023) + string(rune('a'+i%26))
	}
	var steps []rs.Step
	for p := range parts {
		if p > 0 {
			steps = append(steps, rs.Hold())
		}
		for range perPart {
			steps = append(steps, rs.SayChunks(chunks...))
		}
	}
	const previewsPerPart = perPart * (deltas + 1)
	const total = parts * previewsPerPart
	if partBytes := previewsPerPart * 1200; partBytes > rs.MaxPendingPreviewBytesForTest {
		t.Fatalf("a part (%d bytes) could fill the live reader's queue", partBytes)
	}

	live := f.stream(t, sid, "?event_deltas=agent.message")
	stalled := openUnread(t, f.env, sid, "?event_deltas=agent.message")
	f.script(t, sid, steps)
	read := make(chan int) // the live reader's count of previews, at the end of each part and at the idle
	go func() {
		previews := 0
		for fr := range live.frames {
			if strings.HasPrefix(fr.typ, "event_") {
				previews++
				if previews%previewsPerPart == 0 {
					read <- previews
				}
			}
			if fr.typ == "session.status_idle" {
				read <- previews
				return
			}
		}
	}()

	var stalledQueue rs.PreviewQueue
	for p := range parts {
		if p == 0 {
			f.post(t, sid, msgEvent("go")) // runs the turn up to the first hold
		} else if err := f.srv.ReleaseSession(sid); err != nil {
			t.Fatal(err)
		}
		if got := awaitRead(t, read); got != (p+1)*previewsPerPart {
			t.Fatalf("part %d: the live reader got %d previews, want %d", p, got, (p+1)*previewsPerPart)
		}
		// The live reader has taken everything: its queue is the empty one.
		queues := f.srv.PreviewQueuesForTest(sid)
		slices.SortFunc(queues, func(a, b rs.PreviewQueue) int { return a.Bytes - b.Bytes })
		if len(queues) != 2 || queues[0] != (rs.PreviewQueue{}) {
			t.Fatalf("part %d: queues %+v, want the live reader's empty and not lagging", p, queues)
		}
		q := queues[1]
		if stalledQueue.Lagging && (!q.Lagging || q.Previews == 0) {
			t.Fatalf("part %d: the stalled reader's queue %+v after %+v: it stopped lagging with previews still queued", p, q, stalledQueue)
		}
		stalledQueue = q
	}
	if !stalledQueue.Lagging {
		t.Fatalf("the stalled reader's queue %+v: it was never found full", stalledQueue)
	}
	if got := awaitRead(t, read); got != total {
		t.Fatalf("the live reader got %d previews, want %d", got, total)
	}

	// The stalled reader now reads. Each event's previews are its
	// event_start and then its first deltas, in order; once an event's
	// deltas stop short, no later event gets a delta (previews were shed
	// from one point on, and never resumed while the turn ran); and every
	// persisted event comes, in order.
	log := f.srv.SessionEventsForTest(sid)
	var current, shed string // the event whose previews are coming; the first one cut short
	got := 0                 // current's deltas so far
	endPreviews := func() {
		if current != "" && got < deltas && shed == "" {
			shed = current
		}
		current = ""
	}
	persisted, previews := 0, 0
	for persisted < len(log) {
		fr, err := readFrame(stalled)
		if err != nil {
			t.Fatalf("the stalled stream, after %d events: %v", persisted, err)
		}
		switch fr.typ {
		case "event_start":
			var p struct {
				Event struct {
					ID string `json:"id"`
				} `json:"event"`
			}
			mustUnmarshal(t, fr, &p)
			endPreviews()
			current, got = p.Event.ID, 0
			previews++
		case "event_delta":
			var p struct {
				EventID string `json:"event_id"`
				Delta   struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"delta"`
			}
			mustUnmarshal(t, fr, &p)
			switch {
			case p.EventID != current:
				t.Fatalf("a delta of %s without its event_start", p.EventID)
			case shed != "":
				t.Fatalf("a delta of %s after the previews of %s were cut short: shedding stopped", current, shed)
			case got == deltas || p.Delta.Content.Text != chunks[got]:
				t.Fatalf("delta %d of %s is not the message's", got, current)
			}
			got++
			previews++
		default:
			endPreviews()
			if fr.data != string(log[persisted]) {
				t.Fatalf("event %d out of order", persisted)
			}
			persisted++
		}
	}
	if previews == 0 || previews >= total {
		t.Fatalf("the stalled reader got %d previews of %d", previews, total)
	}
}

func mustUnmarshal(t *testing.T, fr sseFrame, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(fr.data), v); err != nil {
		t.Fatalf("%s frame: %v", fr.typ, err)
	}
}

// awaitRead waits for the live reader's next count. The minute only turns a
// bug (a preview lost, so that a part never completes) into a failure
// rather than a hang; a correct run needs a small fraction of it on any
// machine.
func awaitRead(t *testing.T, read <-chan int) int {
	t.Helper()
	select {
	case n := <-read:
		return n
	case <-time.After(time.Minute):
		t.Fatal("the live reader did not finish a part")
		return 0
	}
}

// openUnread opens a stream and reads nothing of its body until the test
// reads it through the returned reader: unlike sseStream, which buffers
// frames as they come, it leaves only the socket buffers between the
// server and a stalled reader.
func openUnread(t *testing.T, e *env, sid, query string) *bufio.Reader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", e.url+eventsPath(sid)+"/stream"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
	res, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: status %d", res.StatusCode)
	}
	return bufio.NewReader(res.Body)
}

// A stream whose client stops reading is dropped once a write has been
// blocked for the stream write timeout (shortened here), so the connection
// and the subscription do not stay forever. The turn persists more than the
// socket buffers hold, and the client never reads.
func TestStalledStreamIsDropped(t *testing.T) {
	rs.SetStreamWriteTimeoutForTest(t, 100*time.Millisecond)
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	big := strings.Repeat("x", 1<<20)
	steps := make([]rs.Step, 32)
	for i := range steps {
		steps[i] = rs.Say(big)
	}
	f.script(t, sid, steps)
	openUnread(t, f.env, sid, "")
	f.post(t, sid, msgEvent("go"))
	settle(t, "the stalled stream to be dropped", func() bool { return f.srv.SubscribersForTest(sid) == 0 })
}
