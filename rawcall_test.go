package agentplatform_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

const workspacesPath = "/v1/organizations/workspaces"

// rawModel is the application's own view of a model: a raw call decodes
// into whatever the caller declares.
type rawModel struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

func TestExecuteGetDecodesIntoAMapOrAStruct(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	path := "/v1/models/" + url.PathEscape(models.VendorOpus55)

	var m map[string]any
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &m))
	require.Equal(t, models.VendorOpus55, m["id"])
	require.Equal(t, "model", m["type"])

	var s rawModel
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &s))
	require.Equal(t, rawModel{Type: "model", ID: models.VendorOpus55}, s)

	var page pagination.IDPage[models.Model]
	require.NoError(t, client.Execute(ctx, http.MethodGet, modelsPath, nil, &page))
	require.NotEmpty(t, page.Data)

	// The raw bytes, and nothing at all.
	var raw []byte
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &raw))
	require.True(t, json.Valid(raw))
	require.Contains(t, string(raw), `"id":"`+models.VendorOpus55+`"`)
	var resp *http.Response
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, nil, option.WithResponseInto(&resp)))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotEmpty(t, resp.Header.Get("request-id"))

	// What was sent is what any call sends.
	got := last(t, env, http.MethodGet, path)
	require.True(t, strings.HasPrefix(got.Header.Get("Authorization"), "Bearer "), "the request log redacts the key itself")
	require.Equal(t, env.Seed.DefaultWorkspaceID, got.Header.Get("Vendor-Workspace-Id"))
	require.Equal(t, "2023-06-01", got.Header.Get("Vendor-Version"))
	require.True(t, strings.HasPrefix(got.Header.Get("User-Agent"), "agentplatform-go/"))
	require.Empty(t, got.Body)
	require.Empty(t, got.Header.Get("Idempotency-Key"))
}

func TestExecutePostSendsTheBody(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	var m map[string]any
	require.NoError(t, client.Execute(ctx, http.MethodPost, workspacesPath, map[string]any{"name": "raw-map"}, &m))
	require.Equal(t, "raw-map", m["name"])
	id, _ := m["id"].(string)
	ws, err := client.Workspaces.Get(ctx, id)
	require.NoError(t, err, "the raw call created a real workspace")
	require.Equal(t, "raw-map", ws.Name)
	sent := last(t, env, http.MethodPost, workspacesPath)
	require.JSONEq(t, `{"name":"raw-map"}`, string(sent.Body))
	require.Equal(t, "application/json", sent.Header.Get("Content-Type"))
	require.NotEmpty(t, sent.Header.Get("Idempotency-Key"))

	// A struct both ways, and JSON already encoded, sent byte for byte.
	var created workspaces.Workspace
	require.NoError(t, client.Execute(ctx, http.MethodPost, workspacesPath, workspaces.CreateParams{Name: "raw-struct"}, &created))
	require.Equal(t, "raw-struct", created.Name)
	require.NotEmpty(t, created.ID)

	body := []byte(`{ "name" : "raw-bytes" }`)
	require.NoError(t, client.Execute(ctx, http.MethodPost, workspacesPath, body, &created))
	require.Equal(t, "raw-bytes", created.Name)
	require.Equal(t, body, last(t, env, http.MethodPost, workspacesPath).Body)

	require.NoError(t, client.Execute(ctx, http.MethodPost, workspacesPath+"/"+created.ID, json.RawMessage(`{"name":"renamed"}`), &created))
	require.Equal(t, "renamed", created.Name)

	// A POST without a body sends none.
	require.NoError(t, client.Execute(ctx, http.MethodPost, workspacesPath+"/"+created.ID+"/archive", nil, &created))
	require.False(t, created.ArchivedAt.IsZero())
	require.Empty(t, last(t, env, http.MethodPost, workspacesPath+"/"+created.ID+"/archive").Body)
}

func TestExecuteIsRetriedWithOneIdempotencyKey(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	path := "/v1/models/" + models.VendorOpus55

	env.Server.InjectFault(refserver.Fault{Path: path, Status: http.StatusServiceUnavailable})
	var m rawModel
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &m))
	require.Equal(t, models.VendorOpus55, m.ID)
	require.Equal(t, 2, env.Count(http.MethodGet, path))

	// The server performs the POST, then the connection drops: the retry
	// carries the same key and gets the first answer; one workspace exists.
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: workspacesPath, DropAfterHandling: true})
	var ws workspaces.Workspace
	require.NoError(t, env.Client(t, reftest.FreshConnections()).Execute(ctx, http.MethodPost, workspacesPath, map[string]string{"name": "raw-once"}, &ws))
	var keys []string
	for _, r := range env.Server.Requests() {
		if r.Method == http.MethodPost && r.Path == workspacesPath {
			keys = append(keys, r.Header.Get("Idempotency-Key"))
		}
	}
	require.Len(t, keys, 2)
	require.NotEmpty(t, keys[0])
	require.Equal(t, keys[0], keys[1])
	n := 0
	for w, err := range client.Workspaces.All(ctx, workspaces.ListParams{}) {
		require.NoError(t, err)
		if w.Name == "raw-once" {
			n++
			require.Equal(t, ws.ID, w.ID)
		}
	}
	require.Equal(t, 1, n)

	// Retries run out like any call's, options per call included.
	env.Server.ResetRequests()
	env.Server.InjectFault(refserver.Fault{Path: path, Status: 529, Times: 10})
	err := client.Execute(ctx, http.MethodGet, path, nil, &m, option.WithMaxRetries(1))
	require.ErrorIs(t, err, apierror.ErrOverloaded)
	require.Equal(t, 2, env.Count(http.MethodGet, path))
	env.Server.ClearFaults()
}

func TestExecuteErrorsAreTyped(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	err := client.Execute(ctx, http.MethodGet, "/v1/models/vendor-nope-1", nil, &rawModel{})
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	require.Equal(t, apierror.TypeNotFound, apiErr.Type)
	require.NotEmpty(t, apiErr.RequestID)
	require.ErrorIs(t, err, apierror.ErrNotFound)

	err = client.Execute(ctx, http.MethodPost, workspacesPath, map[string]any{"name": ""}, nil)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	require.True(t, strings.HasPrefix(apiErr.Message, "name: "), apiErr.Message)
	require.Equal(t, 1, env.Count(http.MethodPost, workspacesPath), "a 400 is not retried")

	// A success that does not fit the result is a ResponseError.
	var wrong struct {
		ID int `json:"id"`
	}
	err = client.Execute(ctx, http.MethodGet, "/v1/models/"+models.VendorOpus55, nil, &wrong)
	var respErr *apierror.ResponseError
	require.ErrorAs(t, err, &respErr)
	require.Equal(t, http.StatusOK, respErr.StatusCode)

	// So does a body over the size limit.
	err = client.Execute(ctx, http.MethodGet, modelsPath, nil, &map[string]any{}, option.WithMaxResponseSize(16))
	require.ErrorIs(t, err, apierror.ErrResponseTooLarge)
}

func TestExecuteSpanIsNamedVendorRequest(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	ctx := context.Background()
	path := "/v1/models/" + models.VendorOpus55

	env.Server.InjectFault(refserver.Fault{Path: path, Status: http.StatusInternalServerError})
	require.NoError(t, client.Execute(ctx, http.MethodGet, path, nil, &rawModel{}))
	span := onlySpan(t, rec)
	require.Equal(t, "vendor.request", span.Name())
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	require.Equal(t, "GET", a[attr.HTTPRequestMethod].AsString())
	require.Equal(t, path, a[attr.URLPath].AsString())
	require.Equal(t, int64(200), a[attr.HTTPResponseStatus].AsInt64())
	require.Equal(t, int64(1), a[attr.HTTPRequestResends].AsInt64())
	require.Equal(t, attr.ProviderVendor, a[attr.GenAIProviderName].AsString())
	_, hasRoute := a[attr.HTTPRoute]
	require.False(t, hasRoute, "a raw call has no route template")

	// Another path, the same name; a failure is recorded as for any call.
	err := client.Execute(ctx, http.MethodGet, "/v1/models/vendor-nope-1", nil, nil)
	require.ErrorIs(t, err, apierror.ErrNotFound)
	spans := rec.Ended()
	require.Len(t, spans, 2)
	require.Equal(t, "vendor.request", spans[1].Name())
	require.Equal(t, codes.Error, spans[1].Status().Code)
	require.Equal(t, "not_found_error", spantest.Attrs(spans[1])[attr.ErrorType].AsString())

	// A call refused locally records nothing.
	require.Error(t, client.Execute(ctx, http.MethodGet, "/v1/../x", nil, nil))
	require.Len(t, rec.Ended(), 2)
}

func TestExecuteRefusesBadInputLocally(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	var out map[string]any
	for _, tc := range []struct {
		name         string
		method, path string
		body, result any
		field        string
	}{
		{"empty path", "GET", "", nil, nil, "path"},
		{"relative", "GET", "v1/models", nil, nil, "path"},
		{"absolute URL", "GET", "https://evil.example/v1/models", nil, nil, "path"},
		{"another host", "GET", "//evil.example/v1/models", nil, nil, "path"},
		{"dot dot", "GET", "/v1/models/../organizations/workspaces", nil, nil, "path"},
		{"escaped dot dot", "GET", "/v1/models/%2e%2E/x", nil, nil, "path"},
		{"dot", "GET", "/v1/./models", nil, nil, "path"},
		{"query", "GET", "/v1/models?limit=1", nil, nil, "path"},
		{"fragment", "GET", "/v1/models#top", nil, nil, "path"},
		{"empty id", "GET", "/v1/models/", nil, nil, "path"},
		{"empty segment", "GET", "/v1//models", nil, nil, "path"},
		{"space", "GET", "/v1/models/a b", nil, nil, "path"},
		{"non-ASCII", "GET", "/v1/models/é", nil, nil, "path"},
		{"bad escape", "GET", "/v1/models/%zz", nil, nil, "path"},
		{"backslash", "GET", `/v1\models`, nil, nil, "path"},
		{"no method", "", "/v1/models", nil, nil, "method"},
		{"lower-case method", "get", "/v1/models", nil, nil, "method"},
		{"method with a space", "GET /", "/v1/models", nil, nil, "method"},
		{"invalid JSON", "POST", workspacesPath, []byte(`{"name":`), nil, "body"},
		{"reader", "POST", workspacesPath, strings.NewReader(`{}`), nil, "body"},
		{"result not a pointer", "GET", modelsPath, nil, out, "result"},
		{"nil pointer result", "GET", modelsPath, nil, (*rawModel)(nil), "result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env.Server.ResetRequests()
			err := client.Execute(ctx, tc.method, tc.path, tc.body, tc.result)
			var v *apierror.ValidationError
			require.ErrorAs(t, err, &v)
			require.Equal(t, tc.field, v.Field, v.Error())
			require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			require.Empty(t, env.Server.Requests(), "nothing is sent")
		})
	}

	// Escaped ids are fine, and reach the server as given.
	err := client.Execute(ctx, http.MethodGet, "/v1/models/"+url.PathEscape("a b/c"), nil, nil)
	require.ErrorIs(t, err, apierror.ErrNotFound)
	require.Equal(t, 1, env.Count(http.MethodGet, "/v1/models/a b/c"))
}

func TestExecuteStream(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	ctx := context.Background()
	body := map[string]any{
		"model":      models.VendorOpus55,
		"max_tokens": 64,
		"stream":     true,
		"messages":   []map[string]any{{"role": "user", "content": "Hello there"}},
	}

	resp, err := client.ExecuteStream(ctx, http.MethodPost, "/v1/messages", body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"))
	var events []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events = append(events, ev)
		}
	}
	require.NoError(t, sc.Err())
	require.NoError(t, resp.Body.Close())
	require.Equal(t, "message_start", events[0])
	require.Equal(t, "message_stop", events[len(events)-1])

	sent := last(t, env, http.MethodPost, "/v1/messages")
	require.Equal(t, "text/event-stream", sent.Header.Get("Accept"))
	require.Empty(t, sent.Header.Get("Idempotency-Key"), "a stream cannot be replayed, so it carries none")
	span := onlySpan(t, rec)
	require.Equal(t, "vendor.request", span.Name())
	require.Equal(t, codes.Ok, span.Status().Code)

	// Closed before its end: unset. An answer that is not a stream: an error.
	resp, err = client.ExecuteStream(ctx, http.MethodPost, "/v1/messages", body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Len(t, rec.Ended(), 2)
	require.Equal(t, codes.Unset, rec.Ended()[1].Status().Code)

	_, err = client.ExecuteStream(ctx, http.MethodGet, modelsPath, nil)
	require.ErrorContains(t, err, "expected an event stream")
	_, err = client.ExecuteStream(ctx, http.MethodGet, "/v1/models/", nil)
	var v *apierror.ValidationError
	require.ErrorAs(t, err, &v)
	require.Equal(t, "path", v.Field)
}

func TestWithQueryReachesTheServer(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	// A parameter the SDK does not send, applied by the server's filter.
	page, err := client.Models.List(ctx, models.ListParams{}, option.WithQuery("limit", "1"))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, "limit=1", last(t, env, http.MethodGet, modelsPath).RawQuery)

	// Replacing the SDK's own value, so it is sent once.
	page, err = client.Models.List(ctx, models.ListParams{Limit: 5}, option.WithQuery("limit", "2"))
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.Equal(t, "limit=2", last(t, env, http.MethodGet, modelsPath).RawQuery)

	// On a raw call; values are escaped, bracket keys sent literally,
	// repeatable ones repeated; given to the client, they apply to every call.
	var raw pagination.IDPage[rawModel]
	require.NoError(t, client.Execute(ctx, http.MethodGet, modelsPath, nil, &raw,
		option.WithQuery("limit", "3"), option.WithQuery("note", "a&b c"),
		option.WithQueryAdd("tag", "x"), option.WithQueryAdd("tag", "y"), option.WithQuery("created_at[gte]", "2026-01-01")))
	require.Len(t, raw.Data, 3)
	require.Equal(t, "limit=3&note=a%26b+c&tag=x&tag=y&created_at[gte]=2026-01-01", last(t, env, http.MethodGet, modelsPath).RawQuery)

	scoped := env.Client(t, option.WithQuery("limit", "1"))
	page, err = scoped.Models.List(ctx, models.ListParams{Limit: 4})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	page, err = scoped.Models.List(ctx, models.ListParams{}, option.WithQuery("limit", "2"))
	require.NoError(t, err)
	require.Len(t, page.Data, 2, "the call's option comes after the client's")

	var v *apierror.ValidationError
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithQuery("", "x"))
	require.ErrorAs(t, err, &v)
	require.Equal(t, "query", v.Field)
}

func TestWithJSONSetReachesTheServer(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	// An unknown field: the server rejects it by name, which proves it was sent.
	_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "extra"}, option.WithJSONSet("not_yet_modelled", 7))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	require.True(t, strings.HasPrefix(apiErr.Message, "not_yet_modelled: "), apiErr.Message)
	require.Contains(t, apiErr.Message, "unknown field")
	require.JSONEq(t, `{"name":"extra","not_yet_modelled":7}`, string(last(t, env, http.MethodPost, workspacesPath).Body))

	// A known field's value replaced; a nested one set, its object created;
	// a dot inside a key escaped.
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "sdk-name", Tags: map[string]string{"team": "ml"}},
		option.WithJSONSet("name", "caller-name"), option.WithJSONSet(`tags.cost\.center`, "42"),
		option.WithJSONSet("data_residency.workspace_geo", "us"))
	require.NoError(t, err)
	require.Equal(t, "caller-name", ws.Name)
	require.Equal(t, map[string]string{"team": "ml", "cost.center": "42"}, ws.Tags)
	require.Equal(t, workspaces.Geo("us"), ws.DataResidency.WorkspaceGeo)

	// A field deleted: the server assigns its own colour.
	ws, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "colour", DisplayColor: "#123456"}, option.WithJSONDel("display_color"))
	require.NoError(t, err)
	require.NotEqual(t, "#123456", ws.DisplayColor)
	require.NotContains(t, string(last(t, env, http.MethodPost, workspacesPath).Body), "display_color")

	// A POST without a body gets one; a GET stays without.
	archivePath := workspacesPath + "/" + ws.ID + "/archive"
	_, err = client.Workspaces.Archive(ctx, ws.ID, option.WithJSONSet("reason", "done"))
	require.ErrorAs(t, err, &apiErr)
	require.True(t, strings.HasPrefix(apiErr.Message, "reason: "), apiErr.Message)
	require.JSONEq(t, `{"reason":"done"}`, string(last(t, env, http.MethodPost, archivePath).Body))
	_, err = client.Workspaces.Get(ctx, ws.ID, option.WithJSONSet("reason", "done"))
	require.NoError(t, err)
	require.Empty(t, last(t, env, http.MethodGet, workspacesPath+"/"+ws.ID).Body)

	// On a raw call, over a body given as bytes: numbers keep their digits.
	var m map[string]any
	err = client.Execute(ctx, http.MethodPost, workspacesPath, []byte(`{"name":"raw","tags":{"n":"1"}}`), &m,
		option.WithJSONSet("tags.big", "12345678901234567890"))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"n": "1", "big": "12345678901234567890"}, m["tags"])
}

func TestWithJSONSetRefusesLocally(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		call  func() error
		field string
		rule  string
	}{
		{"array body", func() error {
			return client.Execute(ctx, http.MethodPost, workspacesPath, []byte(`[1,2]`), nil, option.WithJSONSet("name", "x"))
		}, "option.WithJSONSet", "the request body is an array, not a JSON object"},
		{"string body", func() error {
			return client.Execute(ctx, http.MethodPost, workspacesPath, "text", nil, option.WithJSONDel("name"))
		}, "option.WithJSONDel", "the request body is a string, not a JSON object"},
		{"through a string", func() error {
			_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "n"}, option.WithJSONSet("name.first", "x"))
			return err
		}, "option.WithJSONSet", `"name" is a string, not an object or array`},
		{"index out of range", func() error {
			return client.Execute(ctx, http.MethodPost, workspacesPath, []byte(`{"a":[1]}`), nil, option.WithJSONSet("a.3", "x"))
		}, "option.WithJSONSet", `"a" is an array of 1 elements there, and "3" is not one of its indexes`},
		{"empty path", func() error {
			_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "n"}, option.WithJSONSet("", 1))
			return err
		}, "option.WithJSONSet", "the path must not be empty"},
		{"empty key", func() error {
			_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "n"}, option.WithJSONSet("tags..x", 1))
			return err
		}, "option.WithJSONSet", "the path has an empty key"},
		{"stray backslash", func() error {
			_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "n"}, option.WithJSONDel(`tags\x`))
			return err
		}, "option.WithJSONDel", "a backslash must escape"},
		{"value that cannot be encoded", func() error {
			_, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "n"}, option.WithJSONSet("x", make(chan int)))
			return err
		}, "option.WithJSONSet", "the value cannot be encoded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env.Server.ResetRequests()
			err := tc.call()
			var v *apierror.ValidationError
			require.ErrorAs(t, err, &v)
			require.Equal(t, tc.field, v.Field, v.Error())
			require.Contains(t, v.Rule, tc.rule)
			require.Empty(t, env.Server.Requests(), "nothing is sent")
		})
	}

	// Given to the client, a bad option fails NewClient.
	_, err := agentplatform.NewClient(option.WithJSONSet("", 1))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

// BenchmarkExecuteModelsGet is BenchmarkModelsGet's call made raw, and
// with the options that extend a call: compare with its impl=SDK and
// impl=Raw.
func BenchmarkExecuteModelsGet(b *testing.B) {
	env := reftest.New(b)
	ctx := context.Background()
	client := env.Client(b, option.WithMaxRetries(0))
	path := "/v1/models/" + models.VendorOpus55
	b.Run("impl=Execute", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m models.Model
			if err := client.Execute(ctx, http.MethodGet, path, nil, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=SDKWithQuery", func(b *testing.B) {
		opt := option.WithQuery("extra", "1")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.Models.Get(ctx, models.VendorOpus55, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}
