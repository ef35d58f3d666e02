package chat_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

var ctx = context.Background()

// service returns the chat service of a client with the options the
// package's users pass to agentplatform.NewClient, closed when the test
// ends.
func service(t *testing.T, opts ...option.Option) *chat.Service {
	t.Helper()
	client, err := agentplatform.NewClient(opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = client.Close() })
	return client.Chat
}

// newEnv is a reference server and a chat service authenticated as its
// seeded owner, with fast retries, then opts.
func newEnv(t *testing.T, opts ...option.Option) (*reftest.Env, *chat.Service) {
	t.Helper()
	env := reftest.New(t)
	base := []option.Option{
		option.WithBaseURL(env.URL),
		option.WithAPIKey(env.Seed.APIKey),
		option.WithWorkspaceID(env.Seed.DefaultWorkspaceID),
		option.WithMaxRetryWait(reftest.FastRetryWait),
	}
	return env, service(t, append(base, opts...)...)
}

// tracedEnv is newEnv with a tracer provider whose spans rec records.
func tracedEnv(t *testing.T, opts ...option.Option) (*reftest.Env, *chat.Service, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	env, s := newEnv(t, append([]option.Option{option.WithTracerProvider(tp), option.WithMaxRetries(0)}, opts...)...)
	return env, s, rec
}

// recordedData serves body as the answer of every request.
func recordedData(t *testing.T, body string) *chat.Service {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("request-id", "req_recorded")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return service(t, option.WithBaseURL(srv.URL), option.WithAPIKey("key"))
}

func chatPrompt(msgs ...chat.Message) chat.CompletionParams {
	return chat.CompletionParams{Model: models.VendorSonnet55, Messages: msgs}
}

// lastBody returns the JSON body of the last request the server received.
func lastBody(t *testing.T, env *reftest.Env) map[string]any {
	t.Helper()
	reqs := env.Server.Requests()
	require.NotEmpty(t, reqs)
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}
