package spans

import (
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Without an exporter there is no tracing, and its hooks do nothing.
func TestTracingOff(t *testing.T) {
	tr := New(Config{Content: true})
	if tr != nil {
		t.Fatal("tracing without an exporter")
	}
	r := httptest.NewRequest("GET", "/v1/agents", nil)
	c := &kit.Call{R: r, Ex: &kit.Exchange{}}
	tr.StartRequest(c, kit.Route{Op: "agents.list"}, true)
	if c.Ex.Span != nil || tr.Tracer() != nil || tr.ContentOn() || tr.TurnParent() != nil {
		t.Fatal("nil tracing did something")
	}
	tr.ParentTurns(c)()
	tr.EndRequest(r, c.Ex, "org_1")
}

// An operation that covers authenticated requests only starts its span
// after authentication; others before it, once.
func TestStartRequestOnce(t *testing.T) {
	tr := New(Config{Exporter: tracetest.NewInMemoryExporter(), AuthenticatedOps: []string{"messages.create"}})
	r := httptest.NewRequest("POST", "/v1/messages", nil)
	c := &kit.Call{R: r, Ex: &kit.Exchange{}}
	tr.StartRequest(c, kit.Route{Op: "messages.create"}, false)
	if Of(c.Ex) != nil {
		t.Fatal("span before authentication")
	}
	tr.StartRequest(c, kit.Route{Op: "messages.create"}, true)
	first := Of(c.Ex)
	if first == nil {
		t.Fatal("no span after authentication")
	}
	tr.StartRequest(c, kit.Route{Op: "messages.create"}, true)
	if Of(c.Ex) != first {
		t.Fatal("span started twice")
	}
	c = &kit.Call{R: r, Ex: &kit.Exchange{}}
	tr.StartRequest(c, kit.Route{}, false)
	if c.Ex.Span != nil {
		t.Fatal("span for a route without an operation")
	}
}

func TestHostPort(t *testing.T) {
	for _, tc := range []struct {
		host, scheme string
		wantHost     string
		wantPort     int
	}{
		{"example.com", "http", "example.com", 80},
		{"example.com", "https", "example.com", 443},
		{"example.com:8080", "http", "example.com", 8080},
		{"[::1]:9000", "https", "::1", 9000},
		{"[::1]", "https", "::1", 443},
		{"example.com:x", "http", "example.com", 80},
	} {
		h, p := hostPort(tc.host, tc.scheme)
		if h != tc.wantHost || p != tc.wantPort {
			t.Errorf("hostPort(%q, %q) = %q, %d; want %q, %d", tc.host, tc.scheme, h, p, tc.wantHost, tc.wantPort)
		}
	}
}
