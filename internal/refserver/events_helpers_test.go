package refserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Helpers of the session-event tests: a fixture with sessions of agents
// with tools, sending and reading events, and a small SSE reader that
// checks the exact framing of every frame it reads.

type evFixture struct {
	sessionFixture
}

func newEvFixture(t *testing.T, opts ...refserver.Option) evFixture {
	t.Helper()
	e := newEnv(t, opts...)
	return evFixture{sessionFixture{env: e, agent: e.createAgent(t, "a"), envID: e.createEnvironment(t, `{"name":"e"}`)["id"].(string)}}
}

// agentWith creates an agent named name on model with extra members
// (`,"tools":[…]`) and returns its id.
func (f evFixture) agentWith(t *testing.T, name, model, extra string) string {
	t.Helper()
	return f.createAgentJSON(t, `{"name":"`+name+`","model":"`+model+`"`+extra+`}`)["id"].(string)
}

// sessionOf creates a session of agentID in the fixture's environment.
func (f evFixture) sessionOf(t *testing.T, agentID, extra string) string {
	t.Helper()
	return wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+agentID+`","environment_id":"`+f.envID+`"`+extra+`}`))["id"].(string)
}

func eventsPath(sid string) string { return sessionsPath + "/" + sid + "/events" }

// send posts events (JSON objects) to a session.
func (f evFixture) send(t *testing.T, sid string, events ...string) response {
	t.Helper()
	return f.ma(t, "POST", eventsPath(sid), `{"events":[`+strings.Join(events, ",")+`]}`)
}

// post sends events, wants a 200, and returns its data (the echoes).
func (f evFixture) post(t *testing.T, sid string, events ...string) []map[string]any {
	t.Helper()
	r := f.send(t, sid, events...)
	wantOK(t, r)
	var body struct {
		Data []map[string]any `json:"data"`
	}
	r.decode(t, &body)
	return body.Data
}

// log is the session's event log (what List Events shows), decoded.
func (f evFixture) log(t *testing.T, sid string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range f.srv.SessionEventsForTest(sid) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("event %s: %v", raw, err)
		}
		out = append(out, m)
	}
	return out
}

// logFrom is the log from index i on.
func (f evFixture) logFrom(t *testing.T, sid string, i int) []map[string]any {
	t.Helper()
	l := f.log(t, sid)
	if i > len(l) {
		t.Fatalf("log has %d events, want at least %d", len(l), i)
	}
	return l[i:]
}

// terminate ends a session for good the way the platform does: its next
// turn hits a terminal error (a Terminate step). It returns the events that
// turn recorded, from the user.message on.
func (f sessionFixture) terminate(t *testing.T, sid string) []map[string]any {
	t.Helper()
	must(t, f.srv.ScriptSession(sid, []refserver.Step{refserver.Terminate("", "")}))
	n := len(f.srv.SessionEventsForTest(sid))
	wantOK(t, f.ma(t, "POST", eventsPath(sid), `{"events":[`+msgEvent("go")+`]}`))
	var out []map[string]any
	for _, raw := range f.srv.SessionEventsForTest(sid)[n:] {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("event %s: %v", raw, err)
		}
		out = append(out, m)
	}
	return out
}

func (f evFixture) script(t *testing.T, sid string, turns ...[]refserver.Step) {
	t.Helper()
	must(t, f.srv.ScriptSession(sid, turns...))
}

func (f evFixture) session(t *testing.T, sid string) map[string]any {
	t.Helper()
	return wantOK(t, f.ma(t, "GET", sessionsPath+"/"+sid, ""))
}

func typesOf(events []map[string]any) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i], _ = ev["type"].(string)
	}
	return out
}

// wantTypes fails unless the events' types are exactly want.
func wantTypes(t *testing.T, events []map[string]any, want ...string) {
	t.Helper()
	if got := typesOf(events); !slices.Equal(got, want) {
		t.Fatalf("types\n got %q\nwant %q", got, want)
	}
}

// ofType returns the events of type typ.
func ofType(events []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, ev := range events {
		if ev["type"] == typ {
			out = append(out, ev)
		}
	}
	return out
}

func last(events []map[string]any) map[string]any { return events[len(events)-1] }

// stopReasonOf renders an idle event's stop_reason compactly.
func stopReasonOf(ev map[string]any) string { return mustMarshal(ev["stop_reason"]) }

func msgEvent(text string) string {
	b, _ := json.Marshal(text)
	return `{"type":"user.message","content":[{"type":"text","text":` + string(b) + `}]}`
}

func confirmation(id, result string) string {
	return `{"type":"user.tool_confirmation","tool_use_id":"` + id + `","result":"` + result + `"}`
}

func customResult(id, text string) string {
	return `{"type":"user.custom_tool_result","custom_tool_use_id":"` + id + `","content":[{"type":"text","text":"` + text + `"}]}`
}

const interruptAll = `{"type":"user.interrupt"}`

// sseFrame is one event of a stream.
type sseFrame struct {
	typ  string
	data string
}

func (fr sseFrame) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(fr.data), &m); err != nil {
		t.Fatalf("%s frame data %q: %v", fr.typ, fr.data, err)
	}
	return m
}

// sseStream reads one Stream Events response in a goroutine that ends when
// the body does; Cleanup closes it and waits for that goroutine.
type sseStream struct {
	header http.Header
	frames chan sseFrame
	end    chan error // nil: a clean end of body
	stop   chan struct{}
	done   chan struct{}
	cancel context.CancelFunc
	body   io.ReadCloser
}

var errBadFrame = errors.New("frame is not exactly `event: <type>\\ndata: <json>\\n\\n`")

func (f evFixture) stream(t *testing.T, sid, query string) *sseStream {
	t.Helper()
	return openStream(t, f.env, sid, query)
}

func openStream(t *testing.T, e *env, sid, query string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.url+eventsPath(sid)+"/stream"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("stream: %v", err)
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cancel()
		t.Fatalf("stream: status %d: %s", res.StatusCode, b)
	}
	s := &sseStream{header: res.Header, frames: make(chan sseFrame, 1024), end: make(chan error, 1),
		stop: make(chan struct{}), done: make(chan struct{}), cancel: cancel, body: res.Body}
	go s.read(bufio.NewReader(res.Body))
	t.Cleanup(s.close)
	return s
}

func (s *sseStream) close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.cancel()
	s.body.Close()
	<-s.done
}

func (s *sseStream) read(br *bufio.Reader) {
	defer close(s.done)
	for {
		fr, err := readFrame(br)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			s.end <- err
			return
		}
		select {
		case s.frames <- fr:
		case <-s.stop:
			return
		}
	}
}

// readFrame reads exactly `event: <type>\ndata: <json>\n\n`; io.EOF only
// at a frame boundary.
func readFrame(br *bufio.Reader) (sseFrame, error) {
	line1, err := br.ReadString('\n')
	if err != nil {
		if err == io.EOF && line1 == "" {
			return sseFrame{}, io.EOF
		}
		return sseFrame{}, io.ErrUnexpectedEOF
	}
	line2, err2 := br.ReadString('\n')
	line3, err3 := br.ReadString('\n')
	if err2 != nil || err3 != nil {
		return sseFrame{}, io.ErrUnexpectedEOF
	}
	typ, ok1 := strings.CutPrefix(line1, "event: ")
	data, ok2 := strings.CutPrefix(line2, "data: ")
	if !ok1 || !ok2 || line3 != "\n" || !json.Valid([]byte(strings.TrimSuffix(data, "\n"))) {
		return sseFrame{}, errBadFrame
	}
	return sseFrame{typ: strings.TrimSuffix(typ, "\n"), data: strings.TrimSuffix(data, "\n")}, nil
}

// streamWait bounds the waits for a frame, the end of a stream or a
// server-side count. It only turns a wait that never ends into a failure
// rather than a hang; a correct run needs a small fraction of it on any
// machine.
const streamWait = time.Minute

// next returns the next frame, pings included.
func (s *sseStream) nextFrame(t *testing.T) sseFrame {
	t.Helper()
	select {
	case fr := <-s.frames:
		return fr
	case err := <-s.end:
		// The reader sends every frame before the end: frames still
		// buffered come first.
		s.end <- err
		select {
		case fr := <-s.frames:
			return fr
		default:
		}
		t.Fatalf("stream ended (%v) while a frame was expected", err)
	case <-time.After(streamWait):
		t.Fatalf("no frame within %v", streamWait)
	}
	return sseFrame{}
}

// next returns the next frame that is not a ping.
func (s *sseStream) next(t *testing.T) sseFrame {
	t.Helper()
	for {
		if fr := s.nextFrame(t); fr.typ != "ping" {
			return fr
		}
	}
}

// until returns the frames (pings skipped) up to and including the first
// of type typ.
func (s *sseStream) until(t *testing.T, typ string) []sseFrame {
	t.Helper()
	var out []sseFrame
	for {
		fr := s.next(t)
		out = append(out, fr)
		if fr.typ == typ {
			return out
		}
	}
}

// wantEnd waits for the end of the body with no frame before it (pings
// allowed) and returns how it ended: nil for a clean end.
func (s *sseStream) wantEnd(t *testing.T) error {
	t.Helper()
	for {
		select {
		case fr := <-s.frames:
			if fr.typ != "ping" {
				t.Fatalf("frame %s %s, want the end of the stream", fr.typ, fr.data)
			}
		case err := <-s.end:
			s.end <- err
			for {
				select {
				case fr := <-s.frames:
					if fr.typ != "ping" {
						t.Fatalf("frame %s %s, want the end of the stream", fr.typ, fr.data)
					}
					continue
				default:
				}
				return err
			}
		case <-time.After(streamWait):
			t.Fatalf("the stream did not end within %v", streamWait)
		}
	}
}

func frameTypes(frames []sseFrame) []string {
	out := make([]string, len(frames))
	for i, fr := range frames {
		out[i] = fr.typ
	}
	return out
}
