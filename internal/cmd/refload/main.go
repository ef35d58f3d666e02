// Command refload measures the reference server as a standalone server
// sees hostile and heavy clients: it starts one on a loopback port in this
// process, drives it, and prints latency percentiles, resident memory and
// goroutine counts, each count taken again once the clients have gone.
//
//	go run ./internal/cmd/refload
//
// Every figure comes from traffic to 127.0.0.1 only; the whole run is
// bounded (a few thousand requests, two minutes at most). It fails when a
// request fails or the goroutine count does not come back to its baseline
// after a step, so CI runs it as a check; the timings are only printed.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		log.SetFlags(0)
		log.Fatalf("refload: %v", err)
	}
}

type load struct {
	srv                  *refserver.Server
	base, key, workspace string
	client               *http.Client
	baseline             int // goroutines with the server idle
}

func run(ctx context.Context) error {
	srv := refserver.New()
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return err
	}
	defer stop()
	seed := srv.Seed()
	l := &load{srv: srv, base: base, key: seed.APIKey, workspace: seed.DefaultWorkspaceID,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000}}}
	settleGoroutines(0)
	l.baseline = runtime.NumGoroutine()
	fmt.Printf("baseline: %d goroutines, RSS %.1f MB\n", l.baseline, rssMB())

	steps := []struct {
		name string
		run  func(context.Context) error
	}{
		{"1,000 concurrent mixed requests", l.mixed},
		{"200 open streams", l.streams},
		{"one stream that never reads, during a firehose", l.stalledReader},
		{"100 unauthenticated 30 MiB bodies", l.bigUnauthenticated},
		{"80,000 vendor-beta values", l.betas},
	}
	for _, st := range steps {
		fmt.Printf("\n%s\n", st.name)
		if err := st.run(ctx); err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
		l.client.CloseIdleConnections()
		after := settleGoroutines(l.baseline)
		fmt.Printf("  goroutines after: %d (baseline %d)\n", after, l.baseline)
		if after > l.baseline {
			return fmt.Errorf("%s: %d goroutines outlived the clients (baseline %d)", st.name, after, l.baseline)
		}
	}
	return nil
}

// settleGoroutines waits (up to 10 s) for the goroutine count to come
// down to want, and returns the count it saw last.
func settleGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb float64
			fmt.Sscan(rest, &kb)
			return kb / 1024
		}
	}
	return 0
}

// do sends one authenticated managed-agents request and decodes the
// response into out (when not nil), failing on any status but want.
func (l *load) do(ctx context.Context, method, path, body string, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, l.base+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("x-api-key", l.key)
	req.Header.Set("vendor-workspace-id", l.workspace)
	req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
	req.Header.Set("content-type", "application/json")
	res, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: status %d: %s", method, path, res.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func (l *load) create(ctx context.Context, path, body string) (string, error) {
	var v struct{ ID string }
	err := l.do(ctx, "POST", path, body, 200, &v)
	return v.ID, err
}

// fixture creates an agent and an environment, and n sessions of them.
func (l *load) fixture(ctx context.Context, n int) ([]string, error) {
	agent, err := l.create(ctx, "/v1/agents", `{"name":"load","model":"vendor-haiku-5-5"}`)
	if err != nil {
		return nil, err
	}
	env, err := l.create(ctx, "/v1/environments", `{"name":"load"}`)
	if err != nil {
		return nil, err
	}
	sessions := make([]string, n)
	for i := range sessions {
		if sessions[i], err = l.create(ctx, "/v1/sessions", `{"agent":"`+agent+`","environment_id":"`+env+`"}`); err != nil {
			return nil, err
		}
	}
	return sessions, nil
}

const message = `{"events":[{"type":"user.message","content":[{"type":"text","text":"hi"}]}]}`

// mixed sends 1,000 requests at once: a fifth each of model reads, agent
// creates, session event sends, session lists and Messages calls.
func (l *load) mixed(ctx context.Context) error {
	sessions, err := l.fixture(ctx, 50)
	if err != nil {
		return err
	}
	const n = 1000
	latencies := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			switch i % 5 {
			case 0:
				errs[i] = l.do(ctx, "GET", "/v1/models/vendor-haiku-5-5", "", 200, nil)
			case 1:
				_, errs[i] = l.create(ctx, "/v1/agents", fmt.Sprintf(`{"name":"a%d","model":"vendor-haiku-5-5"}`, i))
			case 2:
				errs[i] = l.do(ctx, "POST", "/v1/sessions/"+sessions[i%len(sessions)]+"/events", message, 200, nil)
			case 3:
				errs[i] = l.do(ctx, "GET", "/v1/sessions?limit=20", "", 200, nil)
			case 4:
				errs[i] = l.do(ctx, "POST", "/v1/messages", `{"model":"vendor-haiku-5-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`, 200, nil)
			}
			latencies[i] = time.Since(t0)
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	wall := time.Since(t0)
	failed, first := 0, error(nil)
	for _, err := range errs {
		if err != nil {
			failed++
			first = cmp.Or(first, err)
		}
	}
	printLatencies(latencies, wall)
	if failed > 0 {
		return fmt.Errorf("%d of %d requests failed, the first: %w", failed, n, first)
	}
	return nil
}

func printLatencies(d []time.Duration, wall time.Duration) {
	slices.Sort(d)
	at := func(q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
	fmt.Printf("  p50 %v  p99 %v  max %v  (%d requests in %v)\n",
		at(0.50).Round(time.Microsecond), at(0.99).Round(time.Microsecond), d[len(d)-1].Round(time.Microsecond), len(d), wall.Round(time.Millisecond))
}

// openStream opens a session's event stream and returns its reader.
func (l *load) openStream(ctx context.Context, sid, query string) (*bufio.Reader, io.Closer, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", l.base+"/v1/sessions/"+sid+"/events/stream"+query, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("x-api-key", l.key)
	req.Header.Set("vendor-workspace-id", l.workspace)
	req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
	res, err := l.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != 200 {
		res.Body.Close()
		return nil, nil, fmt.Errorf("stream: status %d", res.StatusCode)
	}
	return bufio.NewReader(res.Body), res.Body, nil
}

// streams opens 200 streams, sends a message to each session and reads
// each stream until its session is idle again; meanwhile it times 200
// unrelated requests.
func (l *load) streams(ctx context.Context) error {
	const n = 200
	sessions, err := l.fixture(ctx, n)
	if err != nil {
		return err
	}
	readers := make([]*bufio.Reader, n)
	closers := make([]io.Closer, n)
	for i, sid := range sessions {
		if readers[i], closers[i], err = l.openStream(ctx, sid, "?event_deltas=agent.message"); err != nil {
			return err
		}
	}
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	fmt.Printf("  %d streams open: %d goroutines, RSS %.1f MB\n", n, runtime.NumGoroutine(), rssMB())
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i, sid := range sessions {
		wg.Go(func() {
			if err := l.do(ctx, "POST", "/v1/sessions/"+sid+"/events", message, 200, nil); err != nil {
				errs <- err
				return
			}
			for {
				line, err := readers[i].ReadString('\n')
				if err != nil {
					errs <- err
					return
				}
				if line == "event: session.status_idle\n" {
					return
				}
			}
		})
	}
	latencies := make([]time.Duration, 200)
	for i := range latencies {
		t := time.Now()
		if err := l.do(ctx, "GET", "/v1/models", "", 200, nil); err != nil {
			return err
		}
		latencies[i] = time.Since(t)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	fmt.Printf("  every stream saw its turn end in %v\n", time.Since(t0).Round(time.Millisecond))
	fmt.Print("  unrelated GET /v1/models meanwhile:")
	printLatencies(latencies, time.Since(t0))
	return nil
}

// stalledReader opens a previewing stream that never reads and runs a
// firehose on its session that overflows its queue, timing unrelated
// requests meanwhile.
func (l *load) stalledReader(ctx context.Context) error {
	sessions, err := l.fixture(ctx, 1)
	if err != nil {
		return err
	}
	sid := sessions[0]
	_, closer, err := l.openStream(ctx, sid, "?event_deltas=agent.message")
	if err != nil {
		return err
	}
	defer closer.Close()
	done := make(chan error, 1)
	if err := l.srv.ScriptSession(sid, []refserver.Step{refserver.Firehose(60_000)}); err != nil {
		return err
	}
	go func() { done <- l.do(ctx, "POST", "/v1/sessions/"+sid+"/events", message, 200, nil) }()
	var latencies []time.Duration
	t0 := time.Now()
	for len(latencies) < 200 {
		t := time.Now()
		if err := l.do(ctx, "GET", "/v1/models", "", 200, nil); err != nil {
			return err
		}
		latencies = append(latencies, time.Since(t))
	}
	if err := <-done; err != nil {
		return err
	}
	fmt.Print("  unrelated GET /v1/models meanwhile:")
	printLatencies(latencies, time.Since(t0))
	return nil
}

// bigUnauthenticated posts 100 bodies of 30 MiB without a key.
func (l *load) bigUnauthenticated(ctx context.Context) error {
	before := rssMB()
	body := bytes.Repeat([]byte("x"), 30<<20)
	for range 100 {
		req, err := http.NewRequestWithContext(ctx, "POST", l.base+"/v1/nowhere", bytes.NewReader(body))
		if err != nil {
			return err
		}
		res, err := l.client.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusNotFound {
			return fmt.Errorf("status %d", res.StatusCode)
		}
	}
	body = nil
	runtime.GC()
	fmt.Printf("  RSS %.1f MB before, %.1f MB after\n", before, rssMB())
	return nil
}

// betas sends 80,000 unknown vendor-beta values.
func (l *load) betas(ctx context.Context) error {
	values := make([]string, 80_000)
	for i := range values {
		values[i] = fmt.Sprintf("nope-%d", i)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", l.base+"/v1/models", nil)
	if err != nil {
		return err
	}
	req.Header.Set("x-api-key", l.key)
	req.Header.Set("vendor-workspace-id", l.workspace)
	req.Header.Set("vendor-beta", strings.Join(values, ","))
	t0 := time.Now()
	res, err := l.client.Do(req)
	if err != nil {
		return err
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Printf("  status %d in %v, error body %d bytes\n", res.StatusCode, time.Since(t0).Round(time.Microsecond), len(data))
	if res.StatusCode != http.StatusBadRequest {
		return fmt.Errorf("status %d, want 400", res.StatusCode)
	}
	return nil
}
