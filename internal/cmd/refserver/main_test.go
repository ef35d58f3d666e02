package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRunPrintsTheEnvironmentAndServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, w)
		w.Close()
	}()

	patterns := []*regexp.Regexp{
		regexp.MustCompile(`^reference server listening on (http://127\.0\.0\.1:\d+)$`),
		regexp.MustCompile(`^VENDOR_BASE_URL=(http://127\.0\.0\.1:\d+)$`),
		regexp.MustCompile(`^VENDOR_API_KEY=(sk-vendor-api03-[A-Za-z0-9_-]{43})$`),
		regexp.MustCompile(`^VENDOR_WORKSPACE_ID=(wrkspc_01[0-9A-Za-z]{22})$`),
	}
	lines := bufio.NewScanner(out)
	values := make([]string, len(patterns))
	for i, p := range patterns {
		if !lines.Scan() {
			t.Fatalf("output ended before line %d", i+1)
		}
		m := p.FindStringSubmatch(lines.Text())
		if m == nil {
			t.Fatalf("line %d %q does not match %s", i+1, lines.Text(), p)
		}
		values[i] = m[1]
	}
	if values[0] != values[1] {
		t.Fatalf("two base URLs: %q, %q", values[0], values[1])
	}
	go io.Copy(io.Discard, out) // nothing more is expected, but never block run

	req, _ := http.NewRequest("GET", values[1]+"/v1/models", nil)
	req.Header.Set("Authorization", "Bearer "+values[2])
	req.Header.Set("vendor-workspace-id", values[3])
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /v1/models with the printed environment: %d", res.StatusCode)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(time.Minute): // only turns a run that never returns into a failure
		t.Fatal("run did not return after cancellation")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"-port", "1"}, &out); err == nil {
		t.Fatal("run accepted an unknown flag")
	}
}
