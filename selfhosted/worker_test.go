package selfhosted_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/selfhosted"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// running starts w.Run and returns a func that closes w (with ctx) and
// returns Run's result.
func running(t *testing.T, w *selfhosted.Worker) (closeAndWait func(ctx context.Context) error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- w.Run(context.Background()) }()
	var once sync.Once
	var runErr error
	closeAndWait = func(ctx context.Context) error {
		once.Do(func() {
			require.NoError(t, w.Close(ctx))
			runErr = <-done
		})
		return runErr
	}
	t.Cleanup(func() { _ = closeAndWait(context.Background()) })
	return closeAndWait
}

// lockedBuffer is a log sink safe for the worker's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitTurn opens the session's stream, sends text, and waits for the turn
// to end.
func (e *selfHosted) turn(t *testing.T, sessionID, text string) {
	t.Helper()
	st, err := e.client.Sessions.Events.Stream(t.Context(), sessionID, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	e.send(t, sessionID, text)
	require.NoError(t, waitEndTurn(st, sessionID))
}

// toolResults returns the text of each user.tool_result, in order.
func (e *selfHosted) toolResults(t *testing.T, sessionID string) []string {
	t.Helper()
	var out []string
	for ev, err := range e.client.Sessions.Events.All(t.Context(), sessionID, sessions.EventListParams{}) {
		require.NoError(t, err)
		if r, ok := ev.(*sessions.ToolResultEvent); ok {
			out = append(out, sessions.Text(r.Content))
		}
	}
	return out
}

func TestWorkerRunsTheToolsetInTheSessionsDirectory(t *testing.T) {
	env := newSelfHosted(t)
	dir := t.TempDir()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	w, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithDir(dir),
		selfhosted.WithTracerProvider(tp), selfhosted.WithIdleTimeout(time.Millisecond))
	require.NoError(t, err)
	closeWorker := running(t, w)

	id := env.newSession(t)
	require.NoError(t, env.srv.ScriptSession(id, []platformtest.Step{
		platformtest.UseTool("write", map[string]any{"file_path": "a/b.txt", "content": "one\ntwo\n"}),
		platformtest.UseTool("edit", map[string]any{"file_path": "a/b.txt", "old_string": "two", "new_string": "three"}),
		platformtest.UseTool("read", map[string]any{"file_path": "a/b.txt"}),
		platformtest.UseTool("glob", map[string]any{"pattern": "**/*.txt"}),
		platformtest.UseTool("grep", map[string]any{"pattern": "thr+ee"}),
		platformtest.UseTool("bash", map[string]any{"command": "cat a/b.txt | wc -l"}),
		platformtest.Say("done"),
	}))
	env.turn(t, id, "go")
	env.requireAnsweredOnce(t, id, 6)
	results := env.toolResults(t, id)
	require.Contains(t, results[2], "three")
	require.Contains(t, results[3], filepath.Join("a", "b.txt"))
	require.Contains(t, results[4], "three")
	require.Contains(t, results[5], "2")
	got, err := os.ReadFile(filepath.Join(dir, id, "a", "b.txt"))
	require.NoError(t, err)
	require.Equal(t, "one\nthree\n", string(got))

	require.NoError(t, closeWorker(context.Background()))
	work := spantest.One(t, rec, "vendor.environment.work")
	bash := spantest.One(t, rec, "vendor.tool_use bash")
	require.Equal(t, work.SpanContext().SpanID(), bash.Parent().SpanID(), "a tool's span is a child of its work item's")
	attrs := spantest.Attrs(work)
	require.Equal(t, id, attrs["vendor.session.id"].AsString())
	require.Equal(t, env.envID, attrs["vendor.environment.id"].AsString())
	require.True(t, strings.HasPrefix(attrs["vendor.environment.work.id"].AsString(), "work_"))
	require.NotEmpty(t, attrs["vendor.environment.worker.id"].AsString())
}

func TestWorkerReleasesAnIdleSessionAndServesItsNextTurn(t *testing.T) {
	env := newSelfHosted(t)
	require.NoError(t, env.srv.ScriptAgent(env.agentID,
		[]platformtest.Step{platformtest.UseTool("bash", map[string]any{"command": "echo first"}), platformtest.Say("1")},
		[]platformtest.Step{platformtest.UseTool("bash", map[string]any{"command": "echo second"}), platformtest.Say("2")}))
	var logs lockedBuffer
	w, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithIdleTimeout(time.Millisecond),
		selfhosted.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	require.NoError(t, err)
	running(t, w)

	id := env.newSession(t)
	env.turn(t, id, "one")
	env.waitNoLiveWork(t, id) // released after its idle timeout
	env.turn(t, id, "two")    // a new item, served again
	env.requireAnsweredOnce(t, id, 2)
	require.Equal(t, []string{"first\n", "second\n"}, trimExit(env.toolResults(t, id)))
	require.NotContains(t, logs.String(), env.key)
}

// trimExit keeps the output line of bash results.
func trimExit(results []string) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = strings.SplitAfter(r, "\n")[0]
	}
	return out
}

// waitNoLiveWork waits until the session's work items are all stopped,
// following the server's list with the API key.
func (e *selfHosted) waitNoLiveWork(t *testing.T, sessionID string) {
	t.Helper()
	require.Eventually(t, func() bool {
		for wk, err := range e.client.Environments.Work.All(t.Context(), e.envID, environments.WorkListParams{}, option.WithAPIKey(e.key)) {
			require.NoError(t, err)
			if wk.Data.ID == sessionID && wk.State != environments.WorkStopped {
				return false
			}
		}
		return true
	}, time.Minute, time.Millisecond)
}

func TestBashSeesNoCredential(t *testing.T) {
	t.Setenv("VENDOR_API_KEY", "sk-vendor-api03-must-not-leak")
	env := newSelfHosted(t)
	w, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithIdleTimeout(time.Millisecond))
	require.NoError(t, err)
	running(t, w)
	id := env.newSession(t)
	require.NoError(t, env.srv.ScriptSession(id, []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "env"}), platformtest.Say("ok")}))
	env.turn(t, id, "go")
	out := env.toolResults(t, id)[0]
	require.Contains(t, out, "PATH=")
	require.NotContains(t, out, "must-not-leak")
	require.NotContains(t, out, env.key)
}

func TestCloseHandsWaitingCallsToAnotherWorker(t *testing.T) {
	env := newSelfHosted(t)
	gate := filepath.Join(t.TempDir(), "open")
	id := env.newSession(t)
	require.NoError(t, env.srv.ScriptSession(id, []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "while [ ! -e " + gate + " ]; do sleep 0.01; done; echo passed"}),
		platformtest.Say("ok")}))
	var logs lockedBuffer
	first, err := selfhosted.New(env.client, env.envID, env.key,
		selfhosted.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	require.NoError(t, err)
	closeFirst := running(t, first)
	st, err := env.client.Sessions.Events.Stream(t.Context(), id, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	env.send(t, id, "go")
	require.Eventually(t, func() bool {
		return strings.Contains(logs.String(), "toolrunner: running tool") ||
			strings.Contains(logs.String(), "serving session")
	}, time.Minute, time.Millisecond)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel() // no grace: the running bash is cancelled, its call left waiting
	require.NoError(t, closeFirst(cancelled))

	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	second, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithIdleTimeout(time.Millisecond))
	require.NoError(t, err)
	running(t, second)
	require.NoError(t, waitEndTurn(st, id))
	env.requireAnsweredOnce(t, id, 1)
	require.Contains(t, env.toolResults(t, id)[0], "passed")
}

func TestALostLeaseGoesToAnotherWorker(t *testing.T) {
	env := newSelfHosted(t, platformtest.WithStartTime(time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)))
	gate := filepath.Join(t.TempDir(), "open")
	id := env.newSession(t)
	require.NoError(t, env.srv.ScriptSession(id, []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "while [ ! -e " + gate + " ]; do sleep 0.01; done; echo passed"}),
		platformtest.Say("ok")}))
	var firstLogs lockedBuffer
	// No idle timeout: each worker holds what it serves until it is closed,
	// so Close must release every item, including one it lost and took
	// again (the first worker may poll its own lost item).
	// The server's clock stands still, so the lease runs out only when the
	// test moves it; the worker's own view of it (no heartbeat through for
	// a whole lease) must not run out first on a loaded machine.
	first, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithLeaseTTL(10*time.Second),
		selfhosted.WithIdleTimeout(0), selfhosted.WithLogger(slog.New(slog.NewJSONHandler(&firstLogs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	require.NoError(t, err)
	running(t, first)
	st, err := env.client.Sessions.Events.Stream(t.Context(), id, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	env.send(t, id, "go")
	require.Eventually(t, func() bool { return strings.Contains(firstLogs.String(), "serving session") }, time.Minute, time.Millisecond)
	// Wait for its first heartbeat: a first heartbeat (NO_HEARTBEAT) that
	// arrives after the lease ran out claims the item for whoever sends it,
	// as on the platform, and would take it back from the second worker.
	require.Eventually(t, func() bool {
		for _, w := range env.workStates(t) {
			if strings.Contains(w, " active ") {
				return true
			}
		}
		return false
	}, time.Minute, time.Millisecond)

	env.srv.Advance(time.Minute) // the first worker's lease expires on the server
	var secondLogs lockedBuffer
	second, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithIdleTimeout(0), selfhosted.WithLogger(slog.New(slog.NewJSONHandler(&secondLogs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	require.NoError(t, err)
	running(t, second)
	require.Eventually(t, func() bool { return strings.Contains(firstLogs.String(), "lease is lost") }, time.Minute, time.Millisecond,
		"the first worker's log: %s\nthe second's: %s\nwork: %v", &firstLogs, &secondLogs, env.workStates(t))
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	require.NoError(t, waitEndTurn(st, id))
	env.requireAnsweredOnce(t, id, 1)
}

func TestNewRefusesBadInput(t *testing.T) {
	env := newSelfHosted(t)
	for _, tc := range []struct {
		name  string
		make  func() (*selfhosted.Worker, error)
		field string
	}{
		{"nil client", func() (*selfhosted.Worker, error) { return selfhosted.New(nil, env.envID, env.key) }, "client"},
		{"no environment", func() (*selfhosted.Worker, error) { return selfhosted.New(env.client, "", env.key) }, "environment_id"},
		{"no key", func() (*selfhosted.Worker, error) { return selfhosted.New(env.client, env.envID, "") }, "environment_key"},
		{"max sessions", func() (*selfhosted.Worker, error) {
			return selfhosted.New(env.client, env.envID, env.key, selfhosted.WithMaxSessions(0))
		}, "max_sessions"},
		{"lease", func() (*selfhosted.Worker, error) {
			return selfhosted.New(env.client, env.envID, env.key, selfhosted.WithLeaseTTL(1500*time.Millisecond))
		}, "lease_ttl"},
		{"poll block", func() (*selfhosted.Worker, error) {
			return selfhosted.New(env.client, env.envID, env.key, selfhosted.WithPollBlock(time.Second))
		}, "poll_block"},
		{"dir", func() (*selfhosted.Worker, error) {
			return selfhosted.New(env.client, env.envID, env.key, selfhosted.WithDir(filepath.Join(t.TempDir(), "missing")))
		}, "dir"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := tc.make()
			require.Nil(t, w)
			var verr *apierror.ValidationError
			require.True(t, errors.As(err, &verr), "%v", err)
			require.Equal(t, tc.field, verr.Field)
			require.NotContains(t, err.Error(), env.key)
		})
	}
}

func TestRunStopsOnARefusedKey(t *testing.T) {
	env := newSelfHosted(t)
	w, err := selfhosted.New(env.client, env.envID, "sk-vendor-env01-not-a-key")
	require.NoError(t, err)
	err = w.Run(t.Context())
	var apiErr *apierror.Error
	require.True(t, errors.As(err, &apiErr), "%v", err)
	require.Equal(t, 401, apiErr.StatusCode)
	require.NotContains(t, err.Error(), "not-a-key")
	require.NoError(t, w.Close(t.Context()))
}

func (e *selfHosted) workStates(t *testing.T) []string {
	var out []string
	for wk, err := range e.client.Environments.Work.All(context.Background(), e.envID, environments.WorkListParams{}, option.WithAPIKey(e.key)) {
		if err != nil {
			return append(out, err.Error())
		}
		out = append(out, fmt.Sprintf("%s %s %s ack=%v hb=%v", wk.ID, wk.State, wk.Data.ID, wk.AcknowledgedAt, wk.LatestHeartbeatAt))
	}
	return out
}
