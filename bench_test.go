package agentplatform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// The per-call benchmarks pair the SDK with the baseline the foundation issue
// names: raw net/http plus encoding/json into the same types, against the same
// reference server, with warm connections. Compare each SDK/Raw pair:
//
//	go test -run '^$' -bench 'ModelsGet|WorkspacesList' -benchmem -count 6 . | benchstat -col /impl -

func BenchmarkModelsGet(b *testing.B) {
	env := reftest.New(b)
	ctx := context.Background()
	b.Run("impl=SDK", func(b *testing.B) {
		client := env.Client(b, option.WithMaxRetries(0))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.Models.Get(ctx, models.VendorOpus55); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=Raw", func(b *testing.B) {
		raw := newRawClient(b, env)
		b.ReportAllocs()
		for b.Loop() {
			var m models.Model
			raw.get(b, ctx, "/v1/models/vendor-opus-5-5", &m)
		}
	})
}

func BenchmarkWorkspacesList(b *testing.B) {
	env := reftest.New(b)
	ctx := context.Background()
	client := env.Client(b)
	for i := range 20 {
		if _, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "bench-" + string(rune('a'+i))}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("impl=SDK", func(b *testing.B) {
		client := env.Client(b, option.WithMaxRetries(0))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.Workspaces.List(ctx, workspaces.ListParams{Limit: 20}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=Raw", func(b *testing.B) {
		raw := newRawClient(b, env)
		b.ReportAllocs()
		for b.Loop() {
			var page pagination.IDPage[workspaces.Workspace]
			raw.get(b, ctx, "/v1/organizations/workspaces?limit=20", &page)
		}
	})
}

// BenchmarkModelsGetCanned isolates the client: the server answers with a
// recorded body and does no work of its own, so the SDK/Raw ratio is not
// diluted by the reference server's cost (it runs in the same process and
// its allocations count in allocs/op).
func BenchmarkModelsGetCanned(b *testing.B) {
	env := reftest.New(b)
	ctx := context.Background()
	var recorded bytes.Buffer
	m, err := env.Client(b).Models.Get(ctx, models.VendorOpus55)
	if err != nil {
		b.Fatal(err)
	}
	if err := json.NewEncoder(&recorded).Encode(m); err != nil {
		b.Fatal(err)
	}
	body := recorded.Bytes()
	canned := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_canned")
		_, _ = w.Write(body)
	}))
	b.Cleanup(canned.Close)
	cannedEnv := &reftest.Env{URL: canned.URL, Seed: env.Seed}

	b.Run("impl=SDK", func(b *testing.B) {
		client := env.Client(b, option.WithBaseURL(canned.URL), option.WithMaxRetries(0))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.Models.Get(ctx, models.VendorOpus55); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=Raw", func(b *testing.B) {
		raw := newRawClient(b, cannedEnv)
		b.ReportAllocs()
		for b.Loop() {
			var m models.Model
			raw.get(b, ctx, "/v1/models/vendor-opus-5-5", &m)
		}
	})
}

// rawClient is the baseline: what a careful hand-written call costs.
type rawClient struct {
	hc                   *http.Client
	base, key, workspace string
}

func newRawClient(b *testing.B, env *reftest.Env) *rawClient {
	r := &rawClient{hc: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		base: env.URL, key: env.Seed.APIKey, workspace: env.Seed.DefaultWorkspaceID}
	b.Cleanup(r.hc.CloseIdleConnections)
	return r
}

func (r *rawClient) get(b *testing.B, ctx context.Context, path string, out any) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+path, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.key)
	req.Header.Set("vendor-version", "2023-06-01")
	req.Header.Set("vendor-workspace-id", r.workspace)
	req.Header.Set("Accept", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		b.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTracingOverhead is the per-call cost of tracing, on the
// canned-response server so that only the client is measured: no tracing
// configured (the global provider, recording nothing), an explicit noop
// provider, and a recording SDK provider with a no-op exporter.
func BenchmarkTracingOverhead(b *testing.B) {
	env := reftest.New(b)
	ctx := context.Background()
	m, err := env.Client(b).Models.Get(ctx, models.VendorOpus55)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := json.Marshal(m)
	canned := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_canned")
		_, _ = w.Write(body)
	}))
	b.Cleanup(canned.Close)
	recording := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = recording.Shutdown(ctx) })
	for _, tc := range []struct {
		name string
		opts []option.Option
	}{
		{"tracing=none", nil},
		{"tracing=noop", []option.Option{option.WithTracerProvider(noop.NewTracerProvider())}},
		{"tracing=sdk", []option.Option{option.WithTracerProvider(recording)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			client := env.Client(b, append(tc.opts, option.WithBaseURL(canned.URL), option.WithMaxRetries(0))...)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Models.Get(ctx, models.VendorOpus55); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
