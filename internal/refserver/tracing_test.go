package refserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Request spans of the API (docs/tracing.md): one SERVER span per
// request to a route with an operation, parented by traceparent.

func TestTraceRequestSpan(t *testing.T) {
	e := newTraced(t)
	r := e.do(t, "GET", "/v1/models?limit=2", "", withTraceparent)
	wantOK(t, r)
	s := onlySpan(t, e.exp.GetSpans(), "vendor.models.list")
	wantSpan(t, s, trace.SpanKindServer, codes.Ok)
	if s.Parent.TraceID().String() != inTraceID || s.Parent.SpanID().String() != inSpanID || !s.Parent.IsRemote() ||
		s.SpanContext.TraceID().String() != inTraceID {
		t.Fatalf("parent %v, trace %v", s.Parent, s.SpanContext.TraceID())
	}
	host, port := hostOf(e.url)
	p, _ := strconv.Atoi(port)
	wantExactAttrs(t, s, map[attribute.Key]any{
		attr.GenAIProviderName:  "vendor",
		attr.OrganizationID:     e.seed.OrganizationID,
		attr.WorkspaceID:        e.seed.DefaultWorkspaceID,
		attr.RequestID:          r.header.Get("request-id"),
		attr.HTTPRequestMethod:  "GET",
		attr.HTTPRoute:          "/v1/models",
		attr.HTTPResponseStatus: 200,
		attr.ServerAddress:      host,
		attr.ServerPort:         p,
		attr.URLScheme:          "http",
		attr.URLPath:            "/v1/models",
		attr.URLQuery:           "limit=2",
		attr.URLFull:            e.url + "/v1/models?limit=2",
	})

	// Without traceparent the span is a root; without a query, no url.query.
	e.exp.Reset()
	wantOK(t, e.do(t, "GET", "/v1/models/"+sonnet, ""))
	s = onlySpan(t, e.exp.GetSpans(), "vendor.models.retrieve")
	if s.Parent.IsValid() {
		t.Fatalf("parent %v", s.Parent)
	}
	wantAttrs(t, s, map[attribute.Key]any{attr.HTTPRoute: "/v1/models/{model_id}", attr.URLPath: "/v1/models/" + sonnet,
		attr.URLFull: e.url + "/v1/models/" + sonnet})
	wantNoAttrs(t, s, attr.URLQuery, attr.SessionID, attr.ErrorType)
}

func TestTraceRequestErrors(t *testing.T) {
	e := newTraced(t)
	// An API error: ERROR with its type, the status as an int.
	r := e.do(t, "GET", "/v1/sessions/sesn_missing", "", agentsBeta)
	wantError(t, r, http.StatusNotFound, "not_found_error", "")
	s := onlySpan(t, e.exp.GetSpans(), "vendor.sessions.retrieve")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "not_found_error", attr.HTTPResponseStatus: 404,
		attr.SessionID: "sesn_missing", attr.HTTPRoute: "/v1/sessions/{session_id}", attr.RequestID: r.header.Get("request-id")})
	if s.Status.Description != "not_found_error" {
		t.Fatalf("status description %q", s.Status.Description)
	}

	// Refused before the workspace is known: no workspace id.
	e.exp.Reset()
	wantError(t, e.do(t, "GET", "/v1/agents", "", agentsBeta, withKey("sk-vendor-api01-bogus")), http.StatusUnauthorized, "authentication_error", "")
	s = onlySpan(t, e.exp.GetSpans(), "vendor.agents.list")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "authentication_error", attr.HTTPResponseStatus: 401,
		attr.OrganizationID: e.seed.OrganizationID})
	wantNoAttrs(t, s, attr.WorkspaceID)

	// A 400 of a handler.
	e.exp.Reset()
	wantInvalid(t, e.do(t, "GET", "/v1/models?limit=0", ""), "")
	s = onlySpan(t, e.exp.GetSpans(), "vendor.models.list")
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "invalid_request_error", attr.HTTPResponseStatus: 400})

	// Routes without an operation, and unknown routes, have no span; an
	// unauthenticated Messages request neither.
	e.exp.Reset()
	e.do(t, "GET", "/v1/nothing", "")
	e.do(t, "GET", "/v1/messages", "")
	e.do(t, "POST", "/v1/messages/count_tokens", msgReq(sonnet, "hi", ""))
	e.do(t, "POST", "/v1/chat/completions", `{"model":"`+sonnet+`","messages":[{"role":"user","content":"hi"}]}`)
	e.do(t, "POST", "/v1/messages", msgReq(sonnet, "hi", ""), withKey("sk-vendor-api01-bogus"))
	if spans := e.exp.GetSpans(); len(spans) != 0 {
		t.Fatalf("spans %v", spanNames(spans))
	}
	// Authenticated but refused later: a span.
	wantError(t, e.do(t, "POST", "/v1/messages", msgReq(sonnet, "hi", ""), withWorkspace("wrkspc_unknown")), http.StatusNotFound, "not_found_error", "")
	s = onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "not_found_error", attr.HTTPResponseStatus: 404})
}

func TestTraceCloudEdition(t *testing.T) {
	e := newTraced(t, refserver.WithCloudEdition())
	wantOK(t, e.do(t, "GET", "/v1/models?limit=1", ""))
	s := onlySpan(t, e.exp.GetSpans(), "vendor.models.list")
	wantAttrs(t, s, map[attribute.Key]any{attr.URLScheme: "http", attr.URLPath: "/v1/models", attr.URLQuery: "limit=1",
		attr.HTTPResponseStatus: 200})
	wantNoAttrs(t, s, attr.ServerAddress, attr.ServerPort, attr.URLFull)
}

func TestTraceOff(t *testing.T) {
	e := newEnv(t)
	if e.srv.SpanExporter() != nil {
		t.Fatal("an exporter without the option")
	}
	wantOK(t, e.do(t, "GET", "/v1/models", "", withTraceparent))
}

// Every route family names its spans as docs/tracing.md does.
func TestTraceNames(t *testing.T) {
	e := newTraced(t)
	ws := e.createWorkspace(t, "w")
	tunnel := e.createTunnel(t)
	agent := e.createAgent(t, "a")
	env := e.createEnvironment(t, `{"name":"e"}`)["id"].(string)
	cases := []struct{ method, path, body, name string }{
		{"GET", "/v1/organizations/workspaces/" + ws, "", "vendor.organizations.workspaces.retrieve"},
		{"POST", "/v1/organizations/workspaces/" + ws + "/archive", "", "vendor.organizations.workspaces.archive"},
		{"GET", "/v1/tunnels/" + tunnel, "", "vendor.tunnels.retrieve"},
		{"GET", "/v1/agents/" + agent + "/versions", "", "vendor.agents.versions.list"},
		{"DELETE", "/v1/environments/" + env, "", "vendor.environments.delete"},
		{"GET", "/v1/deployment_runs", "", "vendor.deployment_runs.list"},
		{"GET", "/v1/memory_stores", "", "vendor.memory_stores.list"},
		{"GET", "/v1/sessions/sesn_x/events/stream", "", "vendor.sessions.events.stream"},
		{"POST", "/v1/sessions/sesn_x/resources", `{}`, "vendor.sessions.resources.add"},
		{"POST", "/v1/memory_stores/memstore_x/memory_versions/memver_x/redact", `{}`, "vendor.memory_stores.memory_versions.redact"},
	}
	for _, c := range cases {
		e.exp.Reset()
		e.do(t, c.method, c.path, c.body, tunnelsBeta, withHeader("vendor-beta", "managed-agents-2026-04-01", "mcp-tunnels-2026-06-22"))
		s := onlySpan(t, e.exp.GetSpans(), c.name)
		wantSpan(t, s, trace.SpanKindServer, s.Status.Code)
	}
}

// A stream the client leaves: the status sent with the headers, status
// unset. A response the server drops: api_error, no status.
func TestTraceClientGoneAndDropped(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.sessionOf(t, f.agent, "")
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", f.url+eventsPath(sid)+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+f.seed.APIKey)
	req.Header.Set("vendor-workspace-id", f.seed.DefaultWorkspaceID)
	agentsBeta(req.Header)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	cancel()
	res.Body.Close()
	s := onlySpan(t, waitSpans(t, exp, "vendor.sessions.events.stream"), "vendor.sessions.events.stream")
	wantSpan(t, s, trace.SpanKindServer, codes.Unset)
	wantAttrs(t, s, map[attribute.Key]any{attr.HTTPResponseStatus: 200, attr.SessionID: sid})
	wantNoAttrs(t, s, attr.ErrorType)

	exp.Reset()
	f.srv.InjectFault(refserver.Fault{Path: "/v1/tunnels", Method: "POST", DropAfterHandling: true})
	cutRequest(t, f.env, "POST", "/v1/tunnels", "", tunnelsBeta)
	s = onlySpan(t, waitSpans(t, exp, "vendor.tunnels.create"), "vendor.tunnels.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "api_error"})
	wantNoAttrs(t, s, attr.HTTPResponseStatus)

	// A fault answered before routing is not the API's: no span.
	exp.Reset()
	f.srv.InjectFault(refserver.Fault{Path: "/v1/tunnels", Status: 503})
	f.do(t, "POST", "/v1/tunnels", "", tunnelsBeta)
	if spans := exp.GetSpans(); len(spans) != 0 {
		t.Fatalf("spans %v", spanNames(spans))
	}
}

// Run Deployment Now parents the turn of the session it creates.
func TestTraceDeploymentRunParentsTurn(t *testing.T) {
	f, exp := tracedEvFixture(t)
	id := f.deploymentID(t)
	exp.Reset()
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+id+"/run", ""))
	spans := exp.GetSpans()
	run := onlySpan(t, spans, "vendor.deployments.run")
	wantParent(t, onlySpan(t, spans, "vendor.session.turn"), run)
}

// A traceparent that is not sampled: the server records nothing under it.
func TestTraceUnsampledParent(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.sessionOf(t, f.agent, "")
	exp.Reset()
	unsampled := withHeader("traceparent", "00-"+inTraceID+"-"+inSpanID+"-00")
	wantOK(t, f.ma(t, "POST", eventsPath(sid), `{"events":[`+msgEvent("hi")+`]}`, unsampled))
	wantOK(t, f.do(t, "POST", "/v1/messages", msgReq(sonnet, "hi", ""), unsampled))
	if spans := exp.GetSpans(); len(spans) != 0 {
		t.Fatalf("spans %v", spanNames(spans))
	}
}

// Concurrent traced requests (run with -race).
func TestTraceConcurrent(t *testing.T) {
	f, exp := tracedEvFixture(t, refserver.WithContentCapture(true))
	sids := make([]string, 4)
	for i := range sids {
		sids[i] = f.sessionOf(t, f.agent, "")
	}
	exp.Reset()
	post := func(path, body string) error {
		req, _ := http.NewRequest("POST", f.url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+f.seed.APIKey)
		req.Header.Set("vendor-workspace-id", f.seed.DefaultWorkspaceID)
		agentsBeta(req.Header)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if _, err := io.ReadAll(res.Body); err != nil {
			return err
		}
		if res.StatusCode != 200 {
			return fmt.Errorf("%s: status %d", path, res.StatusCode)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 8 {
		wg.Go(func() {
			for range 5 {
				if i%2 == 0 {
					errs <- post(eventsPath(sids[i/2]), `{"events":[`+msgEvent("hi")+`]}`)
				} else {
					errs <- post("/v1/messages", msgReq(sonnet, "hi", `"stream":true`))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	spans := exp.GetSpans()
	if n := len(spansNamed(spans, "vendor.session.turn")); n != 20 {
		t.Fatalf("%d turns", n)
	}
	if n := len(spansNamed(spans, "vendor.messages.create")); n != 20 {
		t.Fatalf("%d messages spans", n)
	}
	for _, turn := range spansNamed(spans, "vendor.session.turn") {
		var parent bool
		for _, s := range spansNamed(spans, "vendor.sessions.events.send") {
			parent = parent || s.SpanContext.SpanID() == turn.Parent.SpanID()
		}
		if !parent {
			t.Fatal("a turn without its request")
		}
	}
}
