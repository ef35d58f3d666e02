package refserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func TestStartAndStop(t *testing.T) {
	before := goleak.IgnoreCurrent()
	srv := refserver.New()
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	transport := &http.Transport{}
	client := &http.Client{Transport: transport}
	req, _ := http.NewRequest("GET", base+"/v1/models", nil)
	req.Header.Set("x-api-key", srv.Seed().APIKey)
	req.Header.Set("vendor-workspace-id", srv.Seed().DefaultWorkspaceID)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatalf("second stop: %v", err)
	}
	transport.CloseIdleConnections()
	if _, err := client.Get(base + "/v1/models"); err == nil {
		t.Fatal("server still answers after stop")
	}
	transport.CloseIdleConnections()
	// No goroutine outlives stop: the connections' goroutines end on their
	// own schedule once closed, which leaktest waits for.
	leaktest.VerifyNone(t, before)
}

func TestStartFailsOnABadAddress(t *testing.T) {
	if _, _, err := refserver.New().Start("256.0.0.1:-1"); err == nil {
		t.Fatal("Start succeeded on an invalid address")
	}
}

// TestStopEndsOpenStreams: an event stream never ends by itself, so stop
// must end it rather than wait out the shutdown grace period for it. The
// grace period is an hour here: a stop that waited it out would hit the
// test's bound, however slow the machine.
func TestStopEndsOpenStreams(t *testing.T) {
	refserver.SetShutdownGraceForTest(t, time.Hour)
	srv := refserver.New()
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	seed := srv.Seed()
	do := func(method, path, body string) *http.Response {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("x-api-key", seed.APIKey)
		req.Header.Set("vendor-workspace-id", seed.DefaultWorkspaceID)
		req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	idOf := func(res *http.Response) string {
		defer res.Body.Close()
		var v struct{ ID string }
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil || v.ID == "" {
			t.Fatalf("status %d: %v", res.StatusCode, err)
		}
		return v.ID
	}
	env := idOf(do("POST", "/v1/environments", `{"name":"e"}`))
	agent := idOf(do("POST", "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5"}`))
	sess := idOf(do("POST", "/v1/sessions", `{"agent":"`+agent+`","environment_id":"`+env+`"}`))
	stream := do("GET", "/v1/sessions/"+sess+"/events/stream", "")
	if stream.StatusCode != 200 {
		t.Fatalf("stream status %d", stream.StatusCode)
	}

	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, stream.Body)
		stream.Body.Close()
		close(ended)
	}()
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("stop: %v", err)
		}
	case <-time.After(time.Minute): // far under the grace period: stop is waiting for the stream
		t.Fatal("stop waited for the open stream")
	}
	<-ended
	http.DefaultClient.CloseIdleConnections()
}

// A started server cuts off a client that sends its body too slowly, and a
// connection kept open without a request. The deadlines here are only the
// test's bound on waiting for that: the server's timeouts are shortened.
func TestStartedServerCutsOffSlowAndIdleConnections(t *testing.T) {
	refserver.SetConnTimeoutsForTest(t, 200*time.Millisecond, 200*time.Millisecond)
	srv := refserver.New()
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	addr := strings.TrimPrefix(base, "http://")

	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fmt.Fprint(slow, "POST /v1/tunnels HTTP/1.1\r\nHost: refserver\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	_ = slow.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := io.ReadAll(slow); err != nil {
		t.Fatalf("a body that never ends holds its connection: %v", err)
	}

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /v1/models HTTP/1.1\r\nHost: refserver\r\nx-api-key: %s\r\nvendor-workspace-id: %s\r\n\r\n",
		srv.Seed().APIKey, srv.Seed().DefaultWorkspaceID)
	_ = idle.SetReadDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReader(idle)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("an idle keep-alive connection stays open: %v", err)
	}
}

// The started server's read timeout bounds how long a request may take to
// arrive, not how long a response may last: an event stream outlives it.
// The stream is read until it has sent more pings than fit in the
// (shortened) read timeout.
func TestStartedServerKeepsStreamsPastTheReadTimeout(t *testing.T) {
	const readTimeout, ping = 100 * time.Millisecond, 10 * time.Millisecond
	refserver.SetConnTimeoutsForTest(t, readTimeout, time.Minute)
	srv := refserver.New(refserver.WithPingInterval(ping))
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	seed := srv.Seed()
	do := func(method, path, body string) *http.Response {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", seed.APIKey)
		req.Header.Set("vendor-workspace-id", seed.DefaultWorkspaceID)
		req.Header.Set("vendor-beta", "managed-agents-2026-04-01")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	id := func(res *http.Response) string {
		defer res.Body.Close()
		var v struct{ ID string }
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil || v.ID == "" {
			t.Fatalf("status %d: %v", res.StatusCode, err)
		}
		return v.ID
	}
	agent := id(do("POST", "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5"}`))
	env := id(do("POST", "/v1/environments", `{"name":"e"}`))
	sid := id(do("POST", "/v1/sessions", `{"agent":"`+agent+`","environment_id":"`+env+`"}`))
	stream := do("GET", "/v1/sessions/"+sid+"/events/stream", "")
	defer stream.Body.Close()
	br := bufio.NewReader(stream.Body)
	pings := 0
	for pings < 3*int(readTimeout/ping) {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended after %d pings: %v", pings, err)
		}
		if line == "event: ping\n" {
			pings++
		}
	}
	http.DefaultClient.CloseIdleConnections()
}
