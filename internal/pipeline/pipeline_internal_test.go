package pipeline

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/config"
	"github.com/agentplatform/agentplatform-go/option"
)

// These cover the pure helpers that no endpoint of the foundation exercises
// end to end yet (bracket query keys arrive with memory stores).

func TestQueryEncoding(t *testing.T) {
	var q Query
	q.Time("created_at[gte]", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	q.Strings("event_deltas", []string{"agent.message", "agent.thinking"})
	q.String("page", "page_a+b/c")
	q.Int("limit", 0)
	q.Bool("include_archived", false)
	q.Bool("include_default", true)
	require.Equal(t, "created_at[gte]=2026-01-02T03%3A04%3A05Z&event_deltas=agent.message&event_deltas=agent.thinking"+
		"&page=page_a%2Bb%2Fc&include_default=true", q.Encode())

	var empty Query
	require.Empty(t, empty.Encode())
	require.Error(t, empty.IDPage("a", "b", 0, 10))
	require.Error(t, empty.IDPage("", "", 11, 10))
	require.Error(t, empty.CursorPage("", -1, 10))
}

func TestBackoffDoublesUpToItsCap(t *testing.T) {
	for attempt, want := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second} {
		for range 50 {
			d := backoff(initialBackoff, time.Minute, attempt, nil)
			require.LessOrEqual(t, d, want)
			require.GreaterOrEqual(t, d, want*3/4, "attempt %d", attempt)
		}
	}
	require.LessOrEqual(t, backoff(initialBackoff, time.Minute, 1000, nil), maxBackoff, "no overflow on huge attempts")
	require.Equal(t, time.Duration(0), backoff(initialBackoff, 0, 3, nil))
}

// TestBackoffStaysWithinTheMaximumWait: whatever the server sends, the
// wait is within [0, maxWait].
func TestBackoffStaysWithinTheMaximumWait(t *testing.T) {
	const maxWait = 3 * time.Second
	for _, v := range []string{"1e10", "inf", "-inf", "NaN", "-1", "99999999999999999999", "1e400", "-0", "2", "0x1p70",
		"Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 01 Jan 0001 00:00:00 GMT", "soon", ""} {
		for _, name := range []string{"Retry-After", "Retry-After-Ms"} {
			resp := &http.Response{Header: http.Header{name: {v}}}
			d := backoff(initialBackoff, maxWait, 0, resp)
			require.GreaterOrEqual(t, d, time.Duration(0), "%s: %q", name, v)
			require.LessOrEqual(t, d, maxWait, "%s: %q", name, v)
		}
	}
}

func TestServerWait(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After-Ms": {"1500"}}, 1500 * time.Millisecond, true},
		{http.Header{"Retry-After-Ms": {"-5"}, "Retry-After": {"2"}}, 2 * time.Second, true},
		{http.Header{"Retry-After": {"2.5"}}, 2500 * time.Millisecond, true},
		{http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{http.Header{"Retry-After": {"later"}}, 0, false},
		{http.Header{}, 0, false},
		// Too large for a time.Duration: the largest one, never a
		// wrapped-around or negative value.
		{http.Header{"Retry-After": {"1e10"}}, math.MaxInt64, true},
		{http.Header{"Retry-After": {"inf"}}, math.MaxInt64, true},
		{http.Header{"Retry-After": {"+Inf"}}, math.MaxInt64, true},
		{http.Header{"Retry-After": {"99999999999999999999"}}, math.MaxInt64, true},
		{http.Header{"Retry-After-Ms": {"1e300"}}, math.MaxInt64, true},
		{http.Header{"Retry-After-Ms": {"1e400"}}, math.MaxInt64, true},
		{http.Header{"Retry-After-Ms": {"9223372036854.775807"}}, math.MaxInt64, true},
		{http.Header{"Retry-After": {now.AddDate(300, 0, 0).Format(http.TimeFormat)}}, math.MaxInt64, true},
		// Negative or not a number: no wait given.
		{http.Header{"Retry-After": {"NaN"}}, 0, false},
		{http.Header{"Retry-After": {"-1e10"}}, 0, false},
		{http.Header{"Retry-After": {"-inf"}}, 0, false},
		{http.Header{"Retry-After-Ms": {"nan"}}, 0, false},
		{http.Header{"Retry-After-Ms": {"NaN"}, "Retry-After": {"3"}}, 3 * time.Second, true},
		{http.Header{"Retry-After": {"0"}}, 0, true},
		{http.Header{"Retry-After": {"1e-12"}}, 0, true},
	}
	for _, tc := range cases {
		got, ok := serverWait(tc.h, now)
		require.Equal(t, tc.ok, ok, "%v", tc.h)
		require.Equal(t, tc.want, got, "%v", tc.h)
	}
}

func TestJoinBetas(t *testing.T) {
	require.Equal(t, "", joinBetas("", nil))
	require.Equal(t, "a", joinBetas("a", nil))
	require.Equal(t, "b,c", joinBetas("", []string{"b", "c", "b"}))
	require.Equal(t, "a,b", joinBetas("a", []string{"a", "b"}))
	require.Equal(t, "a,b,c", joinBetas("a, b", []string{"b", "c,a"}))
}

func TestRedactJSON(t *testing.T) {
	in := `{"type":"vcs_repository","url":"https://git.example.com/r","authorization_token":"ghp_secret",
		"nested":[{"client_secret":"s1","api_key":"k","name":"ok"}],
		"grant_type":"g","assertion":"jwt1","access_token":"at1","x":{"token":"t1","id-token":"t2"},
		"max_tokens":1024,"usage":{"input_tokens":7}}`
	out := RedactJSON([]byte(in))
	for _, secret := range []string{"ghp_secret", "s1", `"k"`, "jwt1", "at1", "t1", "t2"} {
		require.NotContains(t, out, secret)
	}
	require.Contains(t, out, `"max_tokens":1024`, "counts are not secrets")
	require.Contains(t, out, `"input_tokens":7`)
	require.Contains(t, out, `"name":"ok"`)
	require.Contains(t, out, `"url":"https://git.example.com/r"`)
	require.Equal(t, "<8 bytes, not JSON>", RedactJSON([]byte("not json")))

	h := redactedHeaders(http.Header{"Authorization": {"Bearer x"}, "X-Api-Key": {"y"}, "Idempotency-Key": {"z"}, "Accept": {"a"}})
	require.Equal(t, map[string]string{"Authorization": "[redacted]", "X-Api-Key": "[redacted]", "Idempotency-Key": "z", "Accept": "a"}, h)
}

func TestNewRequestEscapesAndRefusesEmptyParameters(t *testing.T) {
	r := NewRequest("GET", "/v1/sessions/{session_id}/resources/{resource_id}", "sesn_1", "a b/c")
	require.NoError(t, r.err)
	require.Equal(t, "/v1/sessions/sesn_1/resources/a%20b%2Fc", r.Path)
	r = NewRequest("GET", "/v1/sessions/{session_id}/resources/{resource_id}", "sesn_1", "")
	require.EqualError(t, r.err, "agentplatform: invalid parameter resource_id: must not be empty")
	r = NewRequest("GET", "/v1/models", "extra")
	require.Error(t, r.err)
}

func TestSpanNamesFollowTheRoute(t *testing.T) {
	for _, tc := range []struct{ method, route, want string }{
		{"POST", "/v1/messages", "messages.create"},
		{"POST", "/v1/messages/count_tokens", "messages.count_tokens"},
		{"POST", "/v1/chat/completions", "chat.completions.create"},
		{"GET", "/v1/models", "models.list"},
		{"GET", "/v1/models/{model_id}", "models.retrieve"},
		{"POST", "/v1/organizations/workspaces/{workspace_id}/archive", "organizations.workspaces.archive"},
		{"GET", "/v1/agents/{agent_id}/versions", "agents.versions.list"},
		{"POST", "/v1/agents/{agent_id}", "agents.update"},
		{"DELETE", "/v1/environments/{environment_id}", "environments.delete"},
		{"POST", "/v1/sessions", "sessions.create"},
		{"POST", "/v1/sessions/{session_id}/events", "sessions.events.send"},
		{"GET", "/v1/sessions/{session_id}/events", "sessions.events.list"},
		{"GET", "/v1/sessions/{session_id}/events/stream", "sessions.events.stream"},
		{"POST", "/v1/sessions/{session_id}/resources", "sessions.resources.add"},
		{"POST", "/v1/sessions/{session_id}/resources/{resource_id}", "sessions.resources.update"},
		{"POST", "/v1/deployments/{deployment_id}/run", "deployments.run"},
		{"POST", "/v1/deployments/{deployment_id}/unpause", "deployments.unpause"},
		{"GET", "/v1/deployment_runs", "deployment_runs.list"},
		{"GET", "/v1/memory_stores", "memory_stores.list"},
		{"POST", "/v1/memory_stores/{memory_store_id}/memories", "memory_stores.memories.create"},
		{"POST", "/v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}/redact", "memory_stores.memory_versions.redact"},
		// The credential exchanges, which package auth names by this rule itself.
		{"POST", "/v1/oauth/token", "oauth.token.create"},
		{"POST", "/v1/oauth/device_attestation/challenge", "oauth.device_attestation.challenge.create"},
	} {
		require.Equal(t, tc.want, opName(tc.method, tc.route), "%s %s", tc.method, tc.route)
	}
}

// TestRetryClientIsSharedByCalls: the go-retryablehttp client is built with
// the pipeline; a call's options reuse it unless they change what its
// attempt client is made of. Retry counts and waits are read per call.
func TestRetryClientIsSharedByCalls(t *testing.T) {
	t.Setenv(config.EnvAPIKey, "sk-test")
	t.Setenv(config.EnvBaseURL, "")
	p, err := New(nil)
	require.NoError(t, err)
	defer p.Close()
	set := func(f func(*Config)) option.Option { return func(c *Config) error { f(c); return nil } }

	cfg, rc, err := p.callConfig(nil)
	require.NoError(t, err)
	require.Same(t, p.retry, rc)
	require.Same(t, p.cfg, cfg, "a call without options shares the client's Config")

	_, rc, err = p.callConfig([]option.Option{set(func(c *Config) {
		c.MaxRetries, c.MaxRetryWait, c.MaxResponseSize, c.WorkspaceID = 7, time.Second, 10, "wrkspc_x"
	})})
	require.NoError(t, err)
	require.Same(t, p.retry, rc, "retry settings do not need another client")

	_, rc, err = p.callConfig([]option.Option{set(func(c *Config) { c.RequestTimeout = time.Second })})
	require.NoError(t, err)
	require.NotSame(t, p.retry, rc, "the attempt timeout is the attempt client's")
	_, rc, err = p.callConfig([]option.Option{set(func(c *Config) { c.HTTPClient = &http.Client{} })})
	require.NoError(t, err)
	require.NotSame(t, p.retry, rc)
}
