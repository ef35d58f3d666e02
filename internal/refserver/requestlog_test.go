package refserver_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// TestRequestLogKeepsOnlyBodiesWorthKeeping: anyone can reach a standalone
// server, so the log keeps the body of a request only once its credentials
// were accepted (or the route is public); an unknown path or a bad key
// leaves the entry without its body. All bodies together are bounded: the
// oldest lose theirs first.
func TestRequestLogKeepsOnlyBodiesWorthKeeping(t *testing.T) {
	e := newEnv(t)
	e.do(t, "POST", "/v1/nowhere", `{"display_name":"unrouted"}`)
	e.do(t, "POST", "/v1/tunnels", `{"display_name":"bad key"}`, tunnelsBeta, withKey("sk-vendor-api03-wrong"))
	e.do(t, "POST", "/v1/tunnels", `{"display_name":"kept"}`, tunnelsBeta)
	reqs := e.srv.Requests()
	if len(reqs) != 3 || reqs[0].Body != nil || reqs[1].Body != nil || string(reqs[2].Body) != `{"display_name":"kept"}` {
		t.Fatalf("recorded %+v", reqs)
	}

	e.srv.ResetRequests()
	big := `{"display_name":"` + strings.Repeat("x", 24<<20) + `"}`
	for range 3 {
		e.do(t, "POST", "/v1/tunnels", big, tunnelsBeta)
	}
	reqs = e.srv.Requests()
	if len(reqs) != 3 || reqs[0].Body != nil || len(reqs[1].Body) != len(big) || len(reqs[2].Body) != len(big) {
		t.Fatalf("bodies kept: %d, %d, %d bytes", len(reqs[0].Body), len(reqs[1].Body), len(reqs[2].Body))
	}
}

func TestRequestLogRecordsAndRedacts(t *testing.T) {
	e := newEnv(t)
	e.do(t, "POST", "/v1/tunnels", `{"display_name":"x"}`, tunnelsBeta)
	e.clock.Advance(time.Second)
	e.do(t, "GET", "/v1/tunnels", "", tunnelsBeta, withAPIKeyHeader(e.seed.APIKey), withHeader("vendor-beta", "mcp-tunnels-2026-06-22"))
	e.do(t, "GET", "/v1/models?limit=2", "", withKey("sk-vendor-api03-wrong"))
	e.do(t, "POST", "/v1/tunnels", `{"resource":{"authorization_token":"ghp_secret","n":12345678901234567890}}`, tunnelsBeta)

	reqs := e.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests recorded, want 4", len(reqs))
	}
	first, second, third, fourth := reqs[0], reqs[1], reqs[2], reqs[3]
	if first.Method != "POST" || first.Path != "/v1/tunnels" || string(first.Body) != `{"display_name":"x"}` || !first.Time.Equal(testStart) {
		t.Fatalf("first %+v", first)
	}
	if got := first.Header.Get("Authorization"); got != "Bearer [redacted]" {
		t.Fatalf("Authorization recorded as %q", got)
	}
	if got := second.Header.Get("x-api-key"); got != "[redacted]" || second.Header.Get("Authorization") != "" {
		t.Fatalf("x-api-key recorded as %q", got)
	}
	if !second.Time.Equal(testStart.Add(time.Second)) || second.Header.Get("vendor-beta") != "mcp-tunnels-2026-06-22" {
		t.Fatalf("second %+v", second)
	}
	if third.RawQuery != "limit=2" || third.Path != "/v1/models" {
		t.Fatalf("third %+v", third)
	}
	if want := `{"resource":{"authorization_token":"[redacted]","n":12345678901234567890}}`; string(fourth.Body) != want {
		t.Fatalf("body recorded as %s, want %s", fourth.Body, want)
	}
	dump := fmt.Sprintf("%+v", reqs)
	for _, secret := range []string{e.seed.APIKey, "sk-vendor-api03-wrong", "ghp_secret"} {
		if strings.Contains(dump, secret) {
			t.Fatalf("the request log contains %q", secret)
		}
	}

	// Requests returns copies.
	reqs[0].Header.Set("Authorization", "changed")
	reqs[0].Body[0] = 'X'
	if again := e.srv.Requests()[0]; again.Header.Get("Authorization") != "Bearer [redacted]" || again.Body[0] != '{' {
		t.Fatal("Requests returned shared data")
	}
	e.srv.ResetRequests()
	if n := len(e.srv.Requests()); n != 0 {
		t.Fatalf("%d requests after reset", n)
	}
}

func TestRequestLogKeepsTheMostRecent1000(t *testing.T) {
	e := newEnv(t)
	for i := range 1003 {
		e.do(t, "GET", fmt.Sprintf("/v1/n%d", i), "")
	}
	reqs := e.srv.Requests()
	if len(reqs) != 1000 || reqs[0].Path != "/v1/n3" || reqs[999].Path != "/v1/n1002" {
		t.Fatalf("%d requests from %s to %s", len(reqs), reqs[0].Path, reqs[len(reqs)-1].Path)
	}
}

func TestLoggerNeverLogsSecrets(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newEnv(t, refserver.WithLogger(logger))
	e.do(t, "GET", "/v1/models", "")
	e.do(t, "GET", "/v1/models", "", withAPIKeyHeader("sk-vendor-api03-other"))
	e.do(t, "POST", "/v1/tunnels", `{"authorization_token":"ghp_secret"}`, tunnelsBeta)
	out := buf.String()
	if !strings.Contains(out, "request_id=req_") || !strings.Contains(out, "path=/v1/models") || !strings.Contains(out, "status=401") {
		t.Fatalf("log lacks request lines:\n%s", out)
	}
	for _, secret := range []string{e.seed.APIKey, "sk-vendor-api03-other", "ghp_secret"} {
		if strings.Contains(out, secret) {
			t.Fatalf("log contains %q:\n%s", secret, out)
		}
	}
}
