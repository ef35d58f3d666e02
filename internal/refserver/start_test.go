package refserver_test

import (
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func TestStartAndStop(t *testing.T) {
	before := runtime.NumGoroutine()
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
	// No goroutine outlives stop (allowing the runtime a moment to reap).
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines before Start, %d after stop:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func TestStartFailsOnABadAddress(t *testing.T) {
	if _, _, err := refserver.New().Start("256.0.0.1:-1"); err == nil {
		t.Fatal("Start succeeded on an invalid address")
	}
}
