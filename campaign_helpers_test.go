package agentplatform_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// The campaign's tool and its observers: what ran, what went on the wire,
// and how much memory it took.

// campaignInput is the tools' input; the order id's suffix says how the
// call behaves.
type campaignInput struct {
	OrderID string `json:"order_id"`
}

func (in campaignInput) kind() string { return in.OrderID[strings.LastIndexByte(in.OrderID, '-')+1:] }

// The campaign's custom tools. lookup_order answers at once: shipped, or
// failed for a "fail" order. lookup_order_slow never answers by itself: it
// waits for its context, which only its runner's tool timeout ends while
// a turn runs (the turn waits for the call's answer, and the runners close
// after every turn has ended). Each runs on a runner of its own (see
// runCampaign), so that no call's outcome depends on how fast the machine
// is.
const (
	lookupTool = "lookup_order"
	slowTool   = "lookup_order_slow"
)

// campaignToolFor is the tool a scripted call of the kind uses.
func campaignToolFor(kind string) string {
	if kind == "slow" {
		return slowTool
	}
	return lookupTool
}

// campaignTools are the two tools; they count their executions by call id,
// and the slow one reports why its context ended.
type campaignTools struct {
	lookup, slow tool.Tool
	mu           sync.Mutex
	runs         map[string]int        // call id → executions
	slowEnds     map[string]chan error // call id → the slow call's ctx.Err() once it returned
}

func newCampaignTools() *campaignTools {
	c := &campaignTools{runs: map[string]int{}, slowEnds: map[string]chan error{}}
	c.lookup = tool.Must(tool.New(lookupTool, "Looks up an order.", func(ctx context.Context, in campaignInput) (tool.Result, error) {
		c.count(ctx)
		if in.kind() == "fail" {
			return tool.Result{}, errors.New("the order service is down")
		}
		return tool.Text("order " + in.OrderID + " shipped"), nil
	}))
	c.slow = tool.Must(tool.New(slowTool, "Looks up an order in the archive.", func(ctx context.Context, in campaignInput) (tool.Result, error) {
		c.count(ctx)
		<-ctx.Done()
		select {
		case c.slowEnd(toolrunner.CallID(ctx)) <- ctx.Err():
		default: // a second execution: the audit's count of executions reports it
		}
		return tool.Result{}, ctx.Err()
	}))
	return c
}

func (c *campaignTools) all() []tool.Tool { return []tool.Tool{c.lookup, c.slow} }

func (c *campaignTools) count(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs[toolrunner.CallID(ctx)]++
}

// slowEnd is where the slow call's tool reports how its context ended.
func (c *campaignTools) slowEnd(callID string) chan error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.slowEnds[callID]
	if !ok {
		ch = make(chan error, 1)
		c.slowEnds[callID] = ch
	}
	return ch
}

func (c *campaignTools) executions(callID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs[callID]
}

// totals returns how many calls ran and how many executions there were.
func (c *campaignTools) totals() (calls, executions int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.runs {
		calls++
		executions += n
	}
	return calls, executions
}

// campaignObserver counts attempts on the wire (a RoundTripper under the
// SDK), calls and their retries (the SDK's spans: one per call, with
// http.request.resend_count), and samples the heap.
type campaignObserver struct {
	transport *http.Transport
	tp        *sdktrace.TracerProvider

	wire     atomic.Int64 // every attempt, counted or not
	counting atomic.Bool  // only the workload's traffic counts
	mu       sync.Mutex
	attempts map[trace.SpanID]int // attempts on the wire, by the call's span
	resends  map[trace.SpanID]int // http.request.resend_count of each ended call
	names    map[trace.SpanID]string

	// streamsRefused counts the streamed Messages attempts answered 401,
	// which may have used up a stream cut without being cut (see
	// runCampaign).
	streamsRefused atomic.Int64

	sampling chan struct{}
	sampled  chan struct{}
	peak     atomic.Uint64
}

func newCampaignObserver() *campaignObserver {
	o := &campaignObserver{transport: http.DefaultTransport.(*http.Transport).Clone(),
		attempts: map[trace.SpanID]int{}, resends: map[trace.SpanID]int{}, names: map[trace.SpanID]string{}}
	o.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(o))
	return o
}

func (o *campaignObserver) httpClient() *http.Client { return &http.Client{Transport: o} }

func (o *campaignObserver) tracerProvider() trace.TracerProvider { return o.tp }

// RoundTrip counts one attempt of the call whose span is in its context.
func (o *campaignObserver) RoundTrip(req *http.Request) (*http.Response, error) {
	o.wire.Add(1)
	if o.counting.Load() {
		id := trace.SpanContextFromContext(req.Context()).SpanID()
		o.mu.Lock()
		o.attempts[id]++
		o.mu.Unlock()
	}
	resp, err := o.transport.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized && streamedMessages(req) {
		o.streamsRefused.Add(1)
	}
	return resp, err
}

// streamedMessages reports whether req is an attempt of Messages.Stream.
func streamedMessages(req *http.Request) bool {
	return req.Method == http.MethodPost && req.URL.Path == "/v1/messages" && req.Header.Get("Accept") == "text/event-stream"
}

// OnEnd records a call's retries.
func (o *campaignObserver) OnEnd(s sdktrace.ReadOnlySpan) {
	if !o.counting.Load() || s.SpanKind() != trace.SpanKindClient {
		return
	}
	n := 0
	for _, kv := range s.Attributes() {
		if kv.Key == attr.HTTPRequestResends {
			n = int(kv.Value.AsInt64())
		}
	}
	o.mu.Lock()
	o.resends[s.SpanContext().SpanID()] = n
	o.names[s.SpanContext().SpanID()] = s.Name()
	o.mu.Unlock()
}

func (o *campaignObserver) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (o *campaignObserver) Shutdown(context.Context) error                  { return nil }
func (o *campaignObserver) ForceFlush(context.Context) error                { return nil }

// start begins counting and sampling the heap every few milliseconds.
func (o *campaignObserver) start() {
	o.counting.Store(true)
	o.sampling, o.sampled = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(o.sampled)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if b := heapObjectBytes(); b > o.peak.Load() {
				o.peak.Store(b)
			}
			select {
			case <-o.sampling:
				return
			case <-tick.C:
			}
		}
	}()
}

// stop ends counting and sampling.
func (o *campaignObserver) stop() {
	o.counting.Store(false)
	if o.sampling != nil {
		close(o.sampling)
		<-o.sampled
		o.sampling = nil
	}
}

func (o *campaignObserver) close() {
	o.stop()
	_ = o.tp.Shutdown(context.Background())
	o.transport.CloseIdleConnections()
}

// totals sums the ended calls. Each call's attempts on the wire must be
// one plus the retries its span reports; mismatches names the calls that
// break that, and unspanned counts attempts made outside any call.
func (o *campaignObserver) totals() (calls, attempts, retries, maxResend int, mismatches []string, unspanned int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for id, n := range o.resends {
		calls++
		retries += n
		attempts += o.attempts[id]
		maxResend = max(maxResend, n)
		if o.attempts[id] != n+1 {
			mismatches = append(mismatches, fmt.Sprintf("%s: %d attempts, resend_count %d", o.names[id], o.attempts[id], n))
		}
	}
	unspanned = o.attempts[trace.SpanID{}]
	return calls, attempts, retries, maxResend, mismatches, unspanned
}

func (o *campaignObserver) heapPeak() uint64 { return o.peak.Load() }

// wireAttempts is how many attempts went on the wire so far.
func (o *campaignObserver) wireAttempts() int64 { return o.wire.Load() }

// heapObjectBytes reads the live and not yet swept heap objects without
// stopping the world (runtime/metrics, unlike ReadMemStats).
func heapObjectBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// campaignFederation is workload identity federation against the
// campaign's server: an issuer with one ES256 key, a rule whose tokens live
// two minutes of the server's clock (the deployment's fires move it on a
// minute at a time, so tokens are refreshed during the campaign), and a
// source that mints a fresh identity JWT for every exchange. The exchanges
// go through the observer like every other call: their spans and attempts
// are audited too.
type campaignFederation struct {
	creds  *auth.FederationCredentials
	minted atomic.Int64 // identity tokens handed to the source: one per exchange attempt
}

func newCampaignFederation(t *testing.T, env *reftest.Env, clock *refserver.ManualClock, obs *campaignObserver) *campaignFederation {
	t.Helper()
	f := &campaignFederation{}
	cfg := federationConfig(t, env, federationSetup{name: "campaign", lifetime: 120, now: clock.Now, minted: &f.minted})
	cfg.Now, cfg.MaxRetries, cfg.MaxRetryWait = clock.Now, 8, reftest.FastRetryWait
	cfg.HTTPClient, cfg.TracerProvider = obs.httpClient(), obs.tracerProvider()
	var err error
	f.creds, err = auth.Federation(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.creds.Close() })
	return f
}
