package refserver_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

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
	waitFor(t, "the cut streams to unsubscribe", func() bool { return f.srv.SubscribersForTest(sid) == 1 })

	// With a Status: an error frame (SPEC 7 body), then a clean end.
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
// closes the previews (contract 5, rule 5).
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
	waitFor(t, "every stream to unsubscribe", func() bool { return srv.SubscribersForTest(sid) == 0 })
	ts.Close()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	goleak.VerifyNone(t, ignore)
}

// Previews are never shed for a reader that keeps up; a stalled reader
// costs the producer one bounded wait, loses previews from some point on
// (what it gets of an event is still a prefix, starting with its
// event_start), and still gets every persisted event in order.
func TestStreamPreviewBackpressure(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	// 20 messages of 1000 deltas of 1 KiB: more previews than a
	// subscriber's queue holds, and more bytes than socket buffers do.
	chunks := make([]string, 1000)
	for i := range chunks {
		chunks[i] = strings.Repeat("x", 1023) + string(rune('a'+i%26))
	}
	var steps []rs.Step
	for range 20 {
		steps = append(steps, rs.SayChunks(chunks...))
	}
	const total = 20 * 1001
	live := f.stream(t, sid, "?event_deltas=agent.message")
	stalled := f.stream(t, sid, "?event_deltas=agent.message")
	f.script(t, sid, steps)
	counted := make(chan int)
	go func() { // the live reader reads while the turn runs
		previews := 0
		for fr := range live.frames {
			if strings.HasPrefix(fr.typ, "event_") {
				previews++
			}
			if fr.typ == "session.status_idle" {
				counted <- previews
				return
			}
		}
	}()
	start := time.Now()
	f.post(t, sid, msgEvent("go"))
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("the turn took %v: the stalled reader was waited for more than once", took)
	}
	if got := <-counted; got != total {
		t.Fatalf("the live reader got %d previews, want %d", got, total)
	}
	log := f.srv.SessionEventsForTest(sid)
	texts := map[string]string{} // event id: concatenated deltas
	persisted, previews := 0, 0
	for persisted < len(log) {
		fr := stalled.next(t)
		switch fr.typ {
		case "event_start":
			texts[fr.object(t)["event"].(map[string]any)["id"].(string)] = ""
			previews++
		case "event_delta":
			m := fr.object(t)
			id := m["event_id"].(string)
			prefix, ok := texts[id]
			if !ok {
				t.Fatalf("a delta without its event_start: %.80s", fr.data)
			}
			texts[id] = prefix + m["delta"].(map[string]any)["content"].(map[string]any)["text"].(string)
			previews++
		default:
			m := fr.object(t)
			if fr.data != string(log[persisted]) {
				t.Fatalf("event %d out of order", persisted)
			}
			if got, ok := texts[m["id"].(string)]; ok {
				if full := m["content"].([]any)[0].(map[string]any)["text"].(string); !strings.HasPrefix(full, got) {
					t.Fatal("the deltas are not a prefix of the message")
				}
			}
			persisted++
		}
	}
	if previews == 0 || previews >= total {
		t.Fatalf("the stalled reader got %d previews of %d", previews, total)
	}
}
