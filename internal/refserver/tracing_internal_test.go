package refserver

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The span names of the route table are the ones docs/tracing.md lists:
// every API span name has its route, every listed name is an API span
// except the SDK-only ones.
func TestRouteOpsMatchDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/tracing.md")
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	documented := map[string]bool{}
	// The table that starts with "| Span name | Endpoint |", up to the
	// blank line after it.
	_, table, _ := strings.Cut(string(doc), "| Span name | Endpoint |")
	table, _, _ = strings.Cut(table, "\n\n")
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `vendor.") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		var first string
		for _, m := range tick.FindAllStringSubmatch(cell, -1) {
			name := m[1]
			switch {
			case strings.HasPrefix(name, "vendor."): // a full name
				first = name
			case first != "": // ".list": the last full name's operation changed
				name = first[:strings.LastIndex(first, ".")] + name
			}
			documented[name] = true
		}
	}
	if len(documented) < 60 {
		t.Fatalf("parsed only %d names from docs/tracing.md", len(documented))
	}
	sdkOnly := []string{"vendor.messages.count_tokens", "vendor.chat.completions.create",
		"vendor.oauth.token.create", "vendor.oauth.device_attestation.challenge.create"}
	s := New()
	traced := map[string]bool{}
	for _, rt := range s.routes() {
		if rt.Op == "" {
			continue
		}
		name := "vendor." + rt.Op
		if !documented[name] || slices.Contains(sdkOnly, name) {
			t.Errorf("%s %s: span %s is not an API span of docs/tracing.md", rt.Method, rt.Path, name)
		}
		if traced[name] {
			t.Errorf("%s: two routes", name)
		}
		traced[name] = true
	}
	for name := range documented {
		if !traced[name] && !slices.Contains(sdkOnly, name) {
			t.Errorf("%s: documented, no route", name)
		}
	}
}

// Without an exporter there is no tracing state (package sessions tests
// that the engine's hooks then do nothing).
func TestTracingOffHooks(t *testing.T) {
	s := New()
	if s.trace != nil {
		t.Fatal("tracing state without an exporter")
	}
}
