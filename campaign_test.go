package agentplatform_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/leaktest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// The fault campaign: a realistic workload over the reference server while
// faults are injected, then an audit of everything the server recorded
// against everything the SDK delivered. The short plan runs in CI;
// -campaign.long runs the long one and logs its figures.
//
// No outcome depends on how fast the machine is: each tool call's outcome
// is fixed by its kind (see campaignTools and the two runners), faults are
// tied to traffic rather than to time, the deployment's minutes come from
// the server's manual clock, and every wait is for an event, bounded only
// by the campaign's overall deadline.

var campaignLong = flag.Bool("campaign.long", false, "run the long fault campaign and log its figures")

// campaignPlan sizes a campaign.
type campaignPlan struct {
	sessions     int // sessions, each followed by a consumer and the tool runner
	turns        int // user turns per session
	callsPerTurn int // custom tool calls per turn: ok, failing and timing out in turn
	messages     int // Messages calls, half streamed
	fires        int // scheduled deployment fires (clock minutes)
	faultEvery   int // the injector adds a fault every faultEvery attempts on the wire
	maxRetries   int // the client's retry limit
}

func campaignPlanFor(long bool) campaignPlan {
	if long {
		return campaignPlan{sessions: 50, turns: 8, callsPerTurn: 3, messages: 400, fires: 20, faultEvery: 4, maxRetries: 10}
	}
	return campaignPlan{sessions: 50, turns: 2, callsPerTurn: 3, messages: 24, fires: 3, faultEvery: 5, maxRetries: 10}
}

// The runners' tool timeouts. The slow calls run on a runner of their own
// whose timeout, campaignToolTimeout, is the only thing that ends them, so
// they always time out; its length only sets how long they take. The ok
// and failing calls return at once, on a runner whose timeout is longer
// than the campaign's own deadline, so they can never meet it: under any
// load, the campaign would fail on its deadline first.
const (
	campaignDeadline        = 5 * time.Minute
	campaignToolTimeout     = 50 * time.Millisecond
	campaignLookupTimeout   = 2 * campaignDeadline
	campaignMessagesCutPath = "/v1/messages"
)

func TestFaultCampaign(t *testing.T) {
	noEnv(t)
	plan := campaignPlanFor(*campaignLong)
	ignore := goleak.IgnoreCurrent()
	runtime.GC()
	heapBefore := heapObjectBytes()

	var fig campaignFigures
	t.Run("workload", func(t *testing.T) { fig = runCampaign(t, plan) })

	runtime.GC()
	fig.heapRetained = int64(heapObjectBytes()) - int64(heapBefore)
	leaktest.VerifyNone(t, ignore) // everything the campaign started has ended
	t.Logf("fault campaign (%s): %s", map[bool]string{false: "short", true: "long"}[*campaignLong], fig)
	require.Less(t, fig.heapRetained, int64(32<<20), "memory is given back once the campaign's client and server are closed")
	require.Less(t, fig.heapPeak, uint64(512<<20), "peak heap stays bounded")
}

// runCampaign runs the workload and audits it. Everything it starts is
// closed by the time it returns.
func runCampaign(t *testing.T, plan campaignPlan) campaignFigures {
	clock := refserver.NewManualClock(time.Date(2026, time.November, 26, 9, 0, 0, 0, time.UTC))
	env := reftest.New(t, refserver.WithClock(clock))
	obs := newCampaignObserver()
	t.Cleanup(obs.close)
	obs.start()
	client := env.Client(t, option.WithMaxRetries(plan.maxRetries), option.WithHTTPClient(obs.httpClient()),
		option.WithTracerProvider(obs.tracerProvider()))
	ctx, cancel := context.WithTimeout(context.Background(), campaignDeadline)
	defer cancel()

	// Set up before any fault.
	e, err := client.Environments.Create(ctx, environments.CreateParams{Name: "campaign"})
	require.NoError(t, err)
	tools := newCampaignTools()
	worker, err := client.Agents.Create(ctx, agents.CreateParams{Name: "worker", Model: agents.ModelID(models.VendorHaiku55),
		Tools: agents.FromTools(tools.all()...)})
	require.NoError(t, err)
	reporter, err := client.Agents.Create(ctx, agents.CreateParams{Name: "reporter", Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{Name: "every minute", Agent: agents.AgentID(reporter.ID),
		EnvironmentID: e.ID, InitialEvents: []sessions.EventParam{sessions.UserMessage("Report.")},
		Schedule: &deployments.ScheduleParam{Expression: "* * * * *", Timezone: "UTC"}})
	require.NoError(t, err)
	prompt := messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 256,
		Messages: []messages.MessageParam{messages.UserText("Summarize the campaign.")}}
	want, err := client.Messages.Create(ctx, prompt)
	require.NoError(t, err)
	// Messages calls authenticate through workload identity federation, so
	// that token exchanges, refreshes and token-endpoint faults are part of
	// the campaign.
	fed := newCampaignFederation(t, env, clock, obs)
	fedClient, err := agentplatform.NewClient(option.WithBaseURL(env.URL), option.WithCredentials(fed.creds),
		option.WithMaxRetryWait(reftest.FastRetryWait), option.WithMaxRetries(plan.maxRetries),
		option.WithHTTPClient(obs.httpClient()), option.WithTracerProvider(obs.tracerProvider()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = fedClient.Close() })

	// A cut aimed at streamed Messages calls reaches the first one, and is
	// redone: before any other fault, so that the campaign cuts at least
	// one stream whatever the workload's timing.
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: campaignMessagesCutPath, StreamCutAfter: 2, StreamOnly: true})
	var warmUp messageFigures
	require.NoError(t, warmUp.call(ctx, fedClient, prompt, want.Text(), true))
	completed, cut := warmUp.totals()
	require.Equal(t, [2]int{1, 1}, [2]int{completed, cut}, "the first stream was cut once, then redone")
	require.Empty(t, env.Server.PendingFaults())

	// Two runners (each leaves the other's tool to it): the immediate tool
	// on one with a timeout it cannot meet, the slow tool on one whose
	// timeout always ends it (see campaignToolTimeout).
	runner, err := toolrunner.New(client.Sessions, []tool.Tool{tools.lookup}, toolrunner.WithToolTimeout(campaignLookupTimeout),
		toolrunner.WithMaxConcurrency(16))
	require.NoError(t, err)
	slowRunner, err := toolrunner.New(client.Sessions, []tool.Tool{tools.slow}, toolrunner.WithToolTimeout(campaignToolTimeout),
		toolrunner.WithMaxConcurrency(plan.sessions))
	require.NoError(t, err)
	var closeRunners sync.Once
	stopRunners := func() (err error) {
		closeRunners.Do(func() {
			c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			err = errors.Join(runner.Close(c), slowRunner.Close(c))
		})
		return err
	}
	t.Cleanup(func() { _ = stopRunners() }) // before the server's cleanup, which waits for its connections
	runs := make([]*sessionRun, plan.sessions)
	for i := range runs {
		runs[i] = startSessionRun(t, ctx, client, env, worker.ID, e.ID, i, plan)
		require.NoError(t, runner.Add(runs[i].id))
		require.NoError(t, slowRunner.Add(runs[i].id))
	}

	// The workload, while the injector adds faults and the clock fires the
	// deployment.
	inj := startInjector(env, clock, obs, runs, plan)
	var wg sync.WaitGroup
	errs := make(chan error, plan.sessions+plan.messages)
	for _, r := range runs {
		wg.Go(func() {
			if err := r.drive(ctx, client, plan.turns); err != nil {
				errs <- fmt.Errorf("session %d: %w", r.index, err)
			}
		})
	}
	var msgs messageFigures
	sem := make(chan struct{}, 8)
	for i := range plan.messages {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := msgs.call(ctx, fedClient, prompt, want.Text(), i%2 == 1); err != nil {
				errs <- fmt.Errorf("message %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	fig := inj.stop()
	// The Messages cuts left pending met no stream; the others each met
	// one, which the SDK must have reported as a cut.
	for _, f := range env.Server.PendingFaults() {
		if f.StreamOnly && f.Path == campaignMessagesCutPath {
			fig.messageCutsConsumed -= f.Times
		}
	}
	fig.messageCutsConsumed += fig.faults[messagesStreamCut]
	env.Server.ClearFaults()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, stopRunners())
	obs.stop()

	// The audit, without faults.
	for _, r := range runs {
		checked, timedOut := r.audit(t, ctx, client, tools, plan)
		fig.eventsChecked += checked
		fig.slowTimeouts += timedOut
	}
	var fired []time.Time
	for run, err := range client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID, Limit: 100}) {
		require.NoError(t, err)
		require.Nil(t, run.Error)
		trig, ok := run.TriggerContext.(deployments.ScheduleTrigger)
		require.True(t, ok, "run %s: trigger %T", run.ID, run.TriggerContext)
		fired = append(fired, trig.ScheduledAt)
	}
	require.Len(t, fired, plan.fires, "one run per scheduled minute, none twice")
	slices.SortFunc(fired, time.Time.Compare)
	require.Len(t, slices.Compact(fired), plan.fires)

	fig.toolCalls, fig.toolExecutions = tools.totals()
	require.Equal(t, fig.toolCalls, fig.toolExecutions, "every tool call ran once")
	fig.messages, fig.messageStreamsCut = msgs.totals()
	// Every cut that met a stream was seen, as a cut, by the SDK. A
	// streamed call answered 401 (its token expired as the clock moved on)
	// may have used up a cut before the stream started: the only gap
	// allowed, and none is usual.
	fig.streamsRefused = int(obs.streamsRefused.Load())
	require.LessOrEqual(t, fig.messageStreamsCut, fig.messageCutsConsumed, "every cut seen comes from an injected cut")
	require.GreaterOrEqual(t, fig.messageStreamsCut, fig.messageCutsConsumed-fig.streamsRefused,
		"every injected cut that met a stream was seen as a cut")
	// The clock has moved on plan.fires minutes, past the token's two:
	// one more call needs a new token.
	_, err = fedClient.Messages.Create(ctx, prompt)
	require.NoError(t, err)
	fig.exchanges = int(fed.minted.Load())
	require.GreaterOrEqual(t, fig.exchanges, 2, "tokens were refreshed as the clock moved")
	require.Equal(t, plan.messages, fig.messages)
	var mismatches []string
	var unspanned int
	fig.calls, fig.attempts, fig.retries, fig.maxResend, mismatches, unspanned = obs.totals()
	require.LessOrEqual(t, fig.maxResend, plan.maxRetries, "no call retried beyond its limit")
	require.Empty(t, mismatches, "each call's attempts on the wire are one plus its retries")
	require.Zero(t, unspanned, "every attempt belongs to a call")
	fig.heapPeak = obs.heapPeak()
	fig.sessions, fig.turns, fig.fires = plan.sessions, plan.sessions*plan.turns, len(fired)
	return fig
}

// campaignFigures are the numbers a campaign reports.
type campaignFigures struct {
	sessions, turns, fires                   int
	eventsChecked, toolCalls, toolExecutions int
	messages, messageStreamsCut, exchanges   int
	messageCutsConsumed, streamsRefused      int
	slowTimeouts                             int
	calls, attempts, retries, maxResend      int
	faults                                   map[string]int
	heapPeak                                 uint64
	heapRetained                             int64
	elapsed                                  time.Duration
}

func (f campaignFigures) String() string {
	kinds := make([]string, 0, len(f.faults))
	total := 0
	for k, n := range f.faults {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
		total += n
	}
	slices.Sort(kinds)
	return fmt.Sprintf("%d sessions, %d turns, %d deployment fires; %d events checked against history; "+
		"%d tool calls answered once (%d executions, %d timed out); %d Messages calls (%d streams cut and redone, "+
		"%d cuts used up, %d streams refused) "+
		"over federation (%d token exchange attempts); "+
		"%d calls, %d attempts, %d retries (max %d per call); %d faults injected %v in %s; "+
		"peak heap %.1f MiB, retained after close %.1f MiB",
		f.sessions, f.turns, f.fires, f.eventsChecked, f.toolCalls, f.toolExecutions, f.slowTimeouts, f.messages,
		f.messageStreamsCut, f.messageCutsConsumed, f.streamsRefused, f.exchanges,
		f.calls, f.attempts, f.retries, f.maxResend, total, kinds, f.elapsed.Round(time.Millisecond),
		float64(f.heapPeak)/(1<<20), float64(f.heapRetained)/(1<<20))
}

// sessionRun is one session of the workload: its script, and a consumer
// that follows its event stream through every fault.
type sessionRun struct {
	index  int
	id     string
	before int // events recorded before the consumer's stream opened
	stream *sessions.EventStream
	mu     sync.Mutex
	seen   []string      // ids the consumer received, in order
	turns  chan struct{} // one per ended turn
	done   chan error    // the consumer's end
}

// campaignOrder is the order id of a scripted call, and its kind, which
// decides the tool it calls and what the tool does with it.
func campaignOrder(session, turn, call int) (orderID, kind string) {
	kind = [...]string{"ok", "fail", "slow"}[(session+turn+call)%3]
	return fmt.Sprintf("%d.%d.%d-%s", session, turn, call, kind), kind
}

func startSessionRun(t *testing.T, ctx context.Context, client *agentplatform.Client, env *reftest.Env,
	agentID, envID string, index int, plan campaignPlan) *sessionRun {
	t.Helper()
	s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agentID), EnvironmentID: envID})
	require.NoError(t, err)
	turns := make([][]refserver.Step, plan.turns)
	for turn := range turns {
		for call := range plan.callsPerTurn {
			order, kind := campaignOrder(index, turn, call)
			turns[turn] = append(turns[turn], refserver.UseCustomTool(campaignToolFor(kind), map[string]any{"order_id": order}))
		}
		turns[turn] = append(turns[turn], refserver.Say(fmt.Sprintf("Turn %d done.", turn)))
	}
	require.NoError(t, env.Server.ScriptSession(s.ID, turns...))

	r := &sessionRun{index: index, id: s.ID, turns: make(chan struct{}, plan.turns), done: make(chan error, 1)}
	r.before = len(history(t, ctx, client, s.ID))
	r.stream, err = client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	go r.consume()
	return r
}

// consume records every event the stream delivers and signals ended turns.
func (r *sessionRun) consume() {
	for ev, err := range r.stream.Events() {
		if err != nil {
			r.done <- err
			return
		}
		if pe, ok := ev.(sessions.PersistedEvent); ok {
			r.mu.Lock()
			r.seen = append(r.seen, pe.Meta().ID)
			r.mu.Unlock()
		}
		if idle, ok := ev.(*sessions.SessionStatusIdleEvent); ok {
			if _, end := idle.StopReason.(sessions.StopEndTurn); end {
				r.turns <- struct{}{}
			}
		}
	}
	r.done <- nil
}

// drive sends the session's turns one after another, each once its
// previous turn has ended as the consumer saw it, then closes the stream.
func (r *sessionRun) drive(ctx context.Context, client *agentplatform.Client, turns int) error {
	defer r.stream.Close()
	for turn := range turns {
		if _, err := client.Sessions.Events.Send(ctx, r.id, sessions.SendParams{
			Events: []sessions.EventParam{sessions.UserMessage(fmt.Sprintf("Turn %d, please.", turn))}}); err != nil {
			return err
		}
		select {
		case <-r.turns:
		case err := <-r.done:
			return fmt.Errorf("the stream ended during turn %d: %v", turn, err)
		case <-ctx.Done():
			return fmt.Errorf("turn %d did not end: %w", turn, ctx.Err())
		}
	}
	return nil
}

// audit compares what the consumer received with the recorded history and
// checks every tool call's answer against its kind: shipped, the tool's
// error, or the runner's timeout (the slow tool's context ended by its
// deadline, not cancelled). It returns how many events it checked and how
// many calls timed out.
func (r *sessionRun) audit(t *testing.T, ctx context.Context, client *agentplatform.Client, tools *campaignTools, plan campaignPlan) (checked, timedOut int) {
	t.Helper()
	require.NoError(t, <-r.done, "session %d: the consumer's stream", r.index)
	evs := history(t, ctx, client, r.id)
	ids := make([]string, 0, len(evs))
	for _, ev := range evs {
		ids = append(ids, ev.(sessions.PersistedEvent).Meta().ID)
	}
	r.mu.Lock()
	seen := slices.Clone(r.seen)
	r.mu.Unlock()
	// The consumer closed its stream when the last turn ended; events
	// recorded after that (none are expected) would not be in seen.
	require.Equal(t, ids[r.before:], seen, "session %d: every event once, in order", r.index)

	var uses []*sessions.AgentCustomToolUseEvent
	answers := map[string][]*sessions.CustomToolResultEvent{}
	userMessages, ended := 0, 0
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *sessions.AgentCustomToolUseEvent:
			uses = append(uses, ev)
		case *sessions.CustomToolResultEvent:
			answers[ev.CustomToolUseID] = append(answers[ev.CustomToolUseID], ev)
		case *sessions.UserMessageEvent:
			userMessages++
		case *sessions.SessionStatusIdleEvent:
			if _, end := ev.StopReason.(sessions.StopEndTurn); end {
				ended++
			}
		}
	}
	require.Equal(t, plan.turns, userMessages, "session %d: each turn's message recorded once", r.index)
	require.Equal(t, plan.turns, ended, "session %d", r.index)
	require.Len(t, uses, plan.turns*plan.callsPerTurn, "session %d", r.index)
	for _, use := range uses {
		got := answers[use.ID]
		require.Len(t, got, 1, "session %d: call %s answered exactly once", r.index, use.ID)
		var in campaignInput
		require.NoError(t, json.Unmarshal(use.Input, &in))
		require.Equal(t, campaignToolFor(in.kind()), use.Name, "session %d: order %s", r.index, in.OrderID)
		text := sessions.Text(got[0].Content)
		switch in.kind() {
		case "ok":
			require.False(t, got[0].IsError, "session %d: order %s: %s", r.index, in.OrderID, text)
			require.Equal(t, "order "+in.OrderID+" shipped", text)
		case "fail":
			require.True(t, got[0].IsError, "session %d: order %s", r.index, in.OrderID)
			require.Equal(t, "the order service is down", text)
		case "slow":
			require.True(t, got[0].IsError, "session %d: order %s", r.index, in.OrderID)
			require.Contains(t, text, "timed out", "session %d: order %s", r.index, in.OrderID)
			select {
			case err := <-tools.slowEnd(use.ID):
				require.ErrorIs(t, err, context.DeadlineExceeded, "session %d: order %s: the tool's deadline ended it", r.index, in.OrderID)
			case <-ctx.Done():
				require.FailNow(t, "the slow tool did not return", "session %d: order %s: %v", r.index, in.OrderID, ctx.Err())
			}
			timedOut++
		default:
			require.FailNow(t, "unknown kind", in.OrderID)
		}
		require.Equal(t, 1, tools.executions(use.ID), "session %d: call %s ran once", r.index, use.ID)
	}
	return len(seen), timedOut
}

func history(t *testing.T, ctx context.Context, client *agentplatform.Client, sessionID string) []sessions.Event {
	t.Helper()
	var out []sessions.Event
	for ev, err := range client.Sessions.Events.All(ctx, sessionID, sessions.EventListParams{Order: sessions.OrderAsc}) {
		require.NoError(t, err)
		out = append(out, ev)
	}
	return out
}

// messageFigures counts the Messages part of the workload.
type messageFigures struct {
	mu        sync.Mutex
	completed int
	cut       int
}

// call makes one Messages call, streamed or not, and redoes a streamed call
// whose stream was cut: a cut must surface as a cut error (see
// streamCutError), never as a short message, and any other error fails the
// call. There is no limit on redoes: each one is a stream cut, the injector
// keeps at most one pending and adds one only after dozens of other
// attempts, so a call runs out of cuts long before the campaign's deadline,
// however its redoes interleave with the rest of the traffic.
func (m *messageFigures) call(ctx context.Context, client *agentplatform.Client, p messages.MessageParams, want string, stream bool) error {
	for {
		var got *messages.Message
		var err error
		if stream {
			var ms *messages.MessageStream
			if ms, err = client.Messages.Stream(ctx, p); err == nil {
				got, err = ms.Message()
				_ = ms.Close()
			}
		} else {
			got, err = client.Messages.Create(ctx, p)
		}
		if err != nil && stream && streamCutError(err) {
			m.mu.Lock()
			m.cut++
			m.mu.Unlock()
			continue
		}
		if err != nil {
			return err
		}
		if got.Text() != want {
			return fmt.Errorf("got %q, want %q", got.Text(), want)
		}
		m.mu.Lock()
		m.completed++
		m.mu.Unlock()
		return nil
	}
}

// streamCutError reports whether err is how a stream cut by the server
// (StreamCutAfter, without a Status: the connection dropped mid-body)
// reaches the caller: the body ends early, io.ErrUnexpectedEOF, or the
// connection is reset.
func streamCutError(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

func (m *messageFigures) totals() (completed, cut int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.completed, m.cut
}

// messagesStreamCut is the injector's name for the Messages stream cuts.
const messagesStreamCut = "messages stream cut"

// injector adds a fault every plan.faultEvery attempts on the wire, cycling
// through the kinds, and advances the server clock one minute at a time for
// the deployment. Tying faults to traffic keeps their share of attempts
// steady however fast the machine is, so that no call runs out of retries
// by bad luck.
type injector struct {
	stopc  chan struct{}
	done   chan struct{}
	start  time.Time
	faults map[string]int
}

func startInjector(env *reftest.Env, clock *refserver.ManualClock, obs *campaignObserver, runs []*sessionRun, plan campaignPlan) *injector {
	in := &injector{stopc: make(chan struct{}), done: make(chan struct{}), start: time.Now(), faults: map[string]int{}}
	retryAfterMS := http.Header{"Retry-After-Ms": {"1"}}
	retryAfter := http.Header{"Retry-After": {"0"}}
	kinds := []struct {
		name  string
		fault func(n int) refserver.Fault
	}{
		{"429 burst", func(int) refserver.Fault { return refserver.Fault{Status: 429, Header: retryAfterMS, Times: 3} }},
		{"503 retry-after", func(int) refserver.Fault { return refserver.Fault{Status: 503, Header: retryAfter, Times: 2} }},
		{"529 overloaded", func(int) refserver.Fault { return refserver.Fault{Status: 529, Times: 1} }},
		{"slow response", func(int) refserver.Fault { return refserver.Fault{Delay: 20 * time.Millisecond, Times: 4} }},
		{"stream cut", func(n int) refserver.Fault {
			return refserver.Fault{Path: "/v1/sessions/" + runs[n%len(runs)].id + "/events/stream", StreamCutAfter: 1 + n%4}
		}},
		{"POST dropped", func(int) refserver.Fault { return refserver.Fault{Method: http.MethodPost, Drop: true} }},
		{"POST response lost", func(int) refserver.Fault {
			return refserver.Fault{Method: http.MethodPost, DropAfterHandling: true}
		}},
		// StreamOnly: non-streamed calls to the same path pass it by.
		{messagesStreamCut, func(n int) refserver.Fault {
			return refserver.Fault{Method: http.MethodPost, Path: campaignMessagesCutPath, StreamCutAfter: 2 + n%3, StreamOnly: true}
		}},
	}
	// Streamed calls are a few of the attempts: at most one Messages cut
	// waits for them, so that cuts do not pile up and a call's redoes stay
	// few.
	cutPending := func() bool {
		return slices.ContainsFunc(env.Server.PendingFaults(), func(f refserver.Fault) bool {
			return f.StreamOnly && f.Path == campaignMessagesCutPath
		})
	}
	go func() {
		defer close(in.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		fires := 0
		last := obs.wireAttempts()
		for n := 0; ; {
			select {
			case <-in.stopc:
				// Fire whatever scheduled minutes the workload was too quick for.
				for ; fires < plan.fires; fires++ {
					clock.Advance(time.Minute)
				}
				return
			case <-tick.C:
			}
			if obs.wireAttempts()-last < int64(plan.faultEvery) {
				continue
			}
			last = obs.wireAttempts()
			n++
			k := kinds[n%len(kinds)]
			if k.name != messagesStreamCut || !cutPending() {
				env.Server.InjectFault(k.fault(n / len(kinds)))
				in.faults[k.name]++
			}
			if n%25 == 24 && fires < plan.fires {
				// A minute on: a refresh of the federation token falls due
				// every other minute, and meets a failing token endpoint.
				// Faults there are added only here, where an exchange
				// follows: added as often as the others, they would pile
				// up between the rare exchanges.
				env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/oauth/token", Status: 503, Header: retryAfter})
				env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/oauth/token", Drop: true})
				in.faults["token endpoint 503"]++
				in.faults["token endpoint dropped"]++
				clock.Advance(time.Minute)
				fires++
			}
		}
	}()
	return in
}

// stop ends the injection and returns the figures so far.
func (in *injector) stop() campaignFigures {
	close(in.stopc)
	<-in.done
	return campaignFigures{faults: in.faults, elapsed: time.Since(in.start)}
}
