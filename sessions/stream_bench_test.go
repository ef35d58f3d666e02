package sessions_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// recordedStream builds about n events of realistic turns, in the reference
// server's wire form (docs/session-events-wire.md 4, 5 and 6.3): messages
// with previews, thinking, tool calls and results, spans, usage and idle
// events.
func recordedStream(n int) ([]byte, int) {
	var b strings.Builder
	count := 0
	seq := 0
	ts := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	id := func() string { seq++; return fmt.Sprintf("sevt_01%022d", seq) }
	at := func() string { ts = ts.Add(1370 * time.Microsecond); return ts.Format("2006-01-02T15:04:05.000000Z") }
	emit := func(typ, data string) {
		b.WriteString("event: ")
		b.WriteString(typ)
		b.WriteString("\ndata: ")
		b.WriteString(data)
		b.WriteString("\n\n")
		count++
	}
	text := func(i int) string {
		base := `Order #%d shipped yesterday; it should arrive Friday. The carrier is \"FastShip\" and the tracking number is FS%08d.\nLet me know if you need anything else, such as a refund or an address change.`
		return strings.Repeat(fmt.Sprintf(base, i, i*7), 1+i%3)
	}
	for turn := 0; count < n; turn++ {
		emit("user.message", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"user.message","content":[{"type":"text","text":"Where is my order #%d?"}]}`, id(), at(), turn))
		emit("session.status_running", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"session.status_running"}`, id(), at()))
		for req := 0; req < 2; req++ {
			start := id()
			emit("span.model_request_start", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"span.model_request_start"}`, start, at()))
			thinking, message := id(), id()
			emit("event_start", fmt.Sprintf(`{"type":"event_start","event":{"type":"agent.thinking","id":"%s"}}`, thinking))
			emit("event_start", fmt.Sprintf(`{"type":"event_start","event":{"type":"agent.message","id":"%s"}}`, message))
			full := text(turn + req)
			for i := 0; i < len(full); i += 64 {
				emit("event_delta", fmt.Sprintf(`{"type":"event_delta","event_id":"%s","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"%s"}}}`, message, strings.TrimSuffix(full[i:min(i+64, len(full))], `\`)))
			}
			emit("agent.thinking", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"agent.thinking"}`, thinking, at()))
			emit("agent.message", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"agent.message","content":[{"type":"text","text":"%s"}]}`, message, at(), full))
			var tool string
			if req == 0 {
				tool = id()
				emit("agent.tool_use", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"agent.tool_use","name":"bash","input":{"command":"grep -rn \"order %d\" /workspace/orders","timeout_ms":30000},"evaluated_permission":"allow","evaluation":{"type":"always_allow"},"session_thread_id":null}`, tool, at(), turn))
			}
			emit("span.model_request_end", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"span.model_request_end","model_request_start_id":"%s","is_error":false,"model_usage":{"input_tokens":3571,"output_tokens":727,"cache_creation_input_tokens":0,"cache_read_input_tokens":6656,"speed":"standard"}}`, id(), at(), start))
			if req == 0 {
				emit("agent.tool_result", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"agent.tool_result","tool_use_id":"%s","content":[{"type":"text","text":"/workspace/orders/%d.json:3:  \"status\": \"shipped\",\n/workspace/orders/%d.json:4:  \"eta\": \"2026-03-20\""}],"is_error":false}`, id(), at(), tool, turn, turn))
			}
		}
		emit("session.usage", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"session.usage","usage":{"active_seconds":3.1,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"cache_read_input_tokens":6656,"input_tokens":3571,"output_tokens":727,"list_cost":{"amount":"3","currency":"USD"},"server_tool_use":{"web_fetch_requests":0,"web_search_requests":0}},"budget":{"type":"limit","max_list_cost":{"amount":"2500","currency":"USD"}}}`, id(), at()))
		emit("session.status_idle", fmt.Sprintf(`{"id":"%s","processed_at":"%s","type":"session.status_idle","stop_reason":{"type":"end_turn"},"stop_details":null}`, id(), at()))
	}
	return []byte(b.String()), count
}

// baselineEvent is the one plain struct of the baseline.
type baselineEvent struct {
	Type        string          `json:"type"`
	ID          string          `json:"id"`
	ProcessedAt time.Time       `json:"processed_at"`
	Content     json.RawMessage `json:"content"`
}

// sink keeps the decoded events alive, as a consumer would.
var sink any

// BenchmarkStreamDecoding measures typed event decoding over a recorded
// stream of about 10k mixed events served by an httptest handler: the SDK
// (Stream without reconnection, then Events) against a baseline of raw
// net/http, go-sse's Read and json.Unmarshal into one plain struct.
// x-baseline is the SDK's events/s over the baseline's, when both run;
// x-baseline-cpu the baseline's CPU time per event over the SDK's;
// x-scanner the SDK's events/s over those of a bufio.Scanner client.
func BenchmarkStreamDecoding(b *testing.B) {
	body, events := recordedStream(10000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Write(body)
	}))
	defer srv.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("key"))
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()

	var baselineRate, baselineCPU, scannerRate float64

	// measure reports events/s, allocations and the process's CPU time
	// per event: on a machine shared with other work the wall-clock rate
	// varies from run to run, the CPU time much less.
	measure := func(b *testing.B, run func() int) (rate, cpu float64) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cpuBefore := cpuTime()
		iters := 0
		for b.Loop() {
			if n := run(); n != events {
				b.Fatalf("%d events, want %d", n, events)
			}
			iters++
		}
		cpu = float64(cpuTime()-cpuBefore) / float64(events*iters)
		runtime.ReadMemStats(&after)
		rate = float64(events*iters) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "events/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events*iters), "allocs/event")
		b.ReportMetric(cpu, "cpu-ns/event")
		return rate, cpu
	}
	b.Run("baseline", func(b *testing.B) {
		baselineRate, baselineCPU = measure(b, func() int {
			resp, err := http.Get(srv.URL + "/v1/sessions/sesn_bench/events/stream")
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			n := 0
			for ev, err := range sse.Read(resp.Body, &sse.ReadConfig{MaxEventSize: 32 << 20}) {
				if err != nil {
					b.Fatal(err)
				}
				var e baselineEvent
				if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
					b.Fatal(err)
				}
				sink = &e
				n++
			}
			return n
		})
	})
	// scanner is the plainest client: bufio.Scanner lines, and the data
	// lines decoded with encoding/json into the same plain struct.
	b.Run("scanner", func(b *testing.B) {
		scannerRate, _ = measure(b, func() int {
			resp, err := http.Get(srv.URL + "/v1/sessions/sesn_bench/events/stream")
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			n := 0
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 32<<20)
			for sc.Scan() {
				data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
				if !ok {
					continue
				}
				var e baselineEvent
				if err := json.Unmarshal(data, &e); err != nil {
					b.Fatal(err)
				}
				sink = &e
				n++
			}
			return n
		})
	})
	b.Run("sdk", func(b *testing.B) {
		rate, cpu := measure(b, func() int {
			st, err := client.Sessions.Events.Stream(ctx, "sesn_bench", sessions.StreamParams{NoReconnect: true})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			n := 0
			for ev, err := range st.Events() {
				if err != nil {
					b.Fatal(err)
				}
				sink = ev
				n++
			}
			return n
		})
		if baselineRate > 0 {
			b.ReportMetric(rate/baselineRate, "x-baseline")
			b.ReportMetric(baselineCPU/cpu, "x-baseline-cpu")
		}
		if scannerRate > 0 {
			b.ReportMetric(rate/scannerRate, "x-scanner")
		}
	})
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
