package refserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Helpers of the API-span tests (docs/tracing.md): a server whose spans go to an
// in-memory exporter, and checks of one span at a time.

type traced struct {
	*env
	exp *tracetest.InMemoryExporter
}

func newTraced(t *testing.T, opts ...refserver.Option) traced {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	return traced{env: newEnv(t, append([]refserver.Option{refserver.WithSpanExporter(exp)}, opts...)...), exp: exp}
}

// tracedEvFixture is the session-event fixture with an exporter.
func tracedEvFixture(t *testing.T, opts ...refserver.Option) (evFixture, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	return newEvFixture(t, append([]refserver.Option{refserver.WithSpanExporter(exp)}, opts...)...), exp
}

// A fixed incoming trace context.
const (
	inTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	inSpanID  = "00f067aa0ba902b7"
)

func withTraceparent(h http.Header) { h.Set("traceparent", "00-"+inTraceID+"-"+inSpanID+"-01") }

// spansNamed returns the spans called name, in end order.
func spansNamed(spans tracetest.SpanStubs, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// onlySpan returns the one span called name.
func onlySpan(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	got := spansNamed(spans, name)
	if len(got) != 1 {
		t.Fatalf("%d spans %q, want 1; spans: %v", len(got), name, spanNames(spans))
	}
	return got[0]
}

func spanNames(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

// childrenOf returns the spans whose parent is p.
func childrenOf(spans tracetest.SpanStubs, p tracetest.SpanStub) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Parent.SpanID() == p.SpanContext.SpanID() && s.Parent.TraceID() == p.SpanContext.TraceID() {
			out = append(out, s)
		}
	}
	return out
}

// wantParent checks that s is a child of p.
func wantParent(t *testing.T, s, p tracetest.SpanStub) {
	t.Helper()
	if s.Parent.SpanID() != p.SpanContext.SpanID() || s.SpanContext.TraceID() != p.SpanContext.TraceID() {
		t.Fatalf("%s: parent %s/%s, want %s %s/%s", s.Name, s.Parent.TraceID(), s.Parent.SpanID(),
			p.Name, p.SpanContext.TraceID(), p.SpanContext.SpanID())
	}
}

// wantSpan checks name-independent basics: kind, status, the API's
// resource and scope.
func wantSpan(t *testing.T, s tracetest.SpanStub, kind trace.SpanKind, status codes.Code) {
	t.Helper()
	if s.SpanKind != kind || s.Status.Code != status {
		t.Fatalf("%s: kind %v status %v (%q), want %v %v; attrs %v", s.Name, s.SpanKind, s.Status.Code, s.Status.Description, kind, status, s.Attributes)
	}
	if s.InstrumentationScope.Name != attr.APIScope {
		t.Fatalf("%s: scope %q", s.Name, s.InstrumentationScope.Name)
	}
	if v, ok := s.Resource.Set().Value("service.name"); !ok || v.AsString() != attr.APIServiceName {
		t.Fatalf("%s: resource %v", s.Name, s.Resource)
	}
}

func attrMap(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

// wantAttrs checks attributes by value and type: a Go string is a STRING,
// int an INT64, bool a BOOL, float64 a FLOAT64, []string a STRINGSLICE.
func wantAttrs(t *testing.T, s tracetest.SpanStub, want map[attribute.Key]any) {
	t.Helper()
	got := attrMap(s)
	for k, w := range want {
		v, ok := got[k]
		if !ok {
			t.Errorf("%s: no %s (want %v)", s.Name, k, w)
			continue
		}
		var match bool
		switch w := w.(type) {
		case string:
			match = v.Type() == attribute.STRING && v.AsString() == w
		case int:
			match = v.Type() == attribute.INT64 && v.AsInt64() == int64(w)
		case bool:
			match = v.Type() == attribute.BOOL && v.AsBool() == w
		case float64:
			match = v.Type() == attribute.FLOAT64 && v.AsFloat64() == w
		case []string:
			match = v.Type() == attribute.STRINGSLICE && slices.Equal(v.AsStringSlice(), w)
		default:
			t.Fatalf("unsupported want type %T", w)
		}
		if !match {
			t.Errorf("%s: %s = %v (%v), want %v (%T)", s.Name, k, v.String(), v.Type(), w, w)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// wantExactAttrs checks that the span has exactly the attributes of want.
func wantExactAttrs(t *testing.T, s tracetest.SpanStub, want map[attribute.Key]any) {
	t.Helper()
	wantAttrs(t, s, want)
	for _, kv := range s.Attributes {
		if _, ok := want[kv.Key]; !ok {
			t.Fatalf("%s: unexpected %s = %v", s.Name, kv.Key, kv.Value.String())
		}
	}
}

func wantNoAttrs(t *testing.T, s tracetest.SpanStub, keys ...attribute.Key) {
	t.Helper()
	got := attrMap(s)
	for _, k := range keys {
		if v, ok := got[k]; ok {
			t.Fatalf("%s: unexpected %s = %v", s.Name, k, v.String())
		}
	}
}

// contentJSON decodes a content attribute (it must be valid JSON).
func contentJSON(t *testing.T, s tracetest.SpanStub, k attribute.Key) any {
	t.Helper()
	v, ok := attrMap(s)[k]
	if !ok || v.Type() != attribute.STRING {
		t.Fatalf("%s: no string %s", s.Name, k)
	}
	var out any
	if err := json.Unmarshal([]byte(v.AsString()), &out); err != nil {
		t.Fatalf("%s: %s is not JSON: %v\n%s", s.Name, k, err, v.AsString())
	}
	return out
}

// wantContent compares a content attribute with the expected JSON.
func wantContent(t *testing.T, s tracetest.SpanStub, k attribute.Key, want string) {
	t.Helper()
	got := contentJSON(t, s, k)
	var exp any
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("bad expected JSON %v: %s", err, want)
	}
	if !reflect.DeepEqual(got, exp) {
		t.Fatalf("%s: %s\n got %s\nwant %s", s.Name, k, attrMap(s)[k].AsString(), want)
	}
}

var contentKeys = []attribute.Key{attr.GenAISystemInstructions, attr.GenAIInputMessages, attr.GenAIOutputMessages,
	attr.GenAIRequestStopSequences, attr.ContentTruncated}

// waitSpans waits until a span called name was exported (a dropped
// connection reaches the client before the server ends its span). The
// bound only turns a span that never comes into a failure.
func waitSpans(t *testing.T, exp *tracetest.InMemoryExporter, name string) tracetest.SpanStubs {
	t.Helper()
	deadline := time.Now().Add(streamWait)
	for {
		spans := exp.GetSpans()
		if len(spansNamed(spans, name)) > 0 {
			return spans
		}
		if time.Now().After(deadline) {
			t.Fatalf("no span %q; spans %v", name, spanNames(spans))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cutRequest sends a request whose connection the server drops, on a
// fresh connection, and reads what it can.
func cutRequest(t *testing.T, e *env, method, path, body string, mods ...mod) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	for _, m := range mods {
		m(req.Header)
	}
	res, err := freshClient().Do(req)
	if err != nil {
		return
	}
	_, err = io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil {
		t.Fatalf("%s %s: the connection was not dropped", method, path)
	}
}

// hostOf is the host and port of a test server URL.
func hostOf(url string) (string, string) {
	h := strings.TrimPrefix(url, "http://")
	i := strings.LastIndex(h, ":")
	return h[:i], h[i+1:]
}
