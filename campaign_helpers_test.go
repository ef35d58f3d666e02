package agentplatform_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// The campaign's tool and its observers: what ran, what went on the wire,
// and how much memory it took.

// campaignInput is the tool's input; the order id's suffix says how the
// call behaves.
type campaignInput struct {
	OrderID string `json:"order_id"`
}

func (in campaignInput) kind() string { return in.OrderID[strings.LastIndexByte(in.OrderID, '-')+1:] }

// campaignTools is one tool, lookup_order, that succeeds, fails or outlasts
// the runner's timeout according to the order, and counts its executions
// by call id.
type campaignTools struct {
	tool tool.Tool
	mu   sync.Mutex
	runs map[string]int // call id → executions
}

func newCampaignTools() *campaignTools {
	c := &campaignTools{runs: map[string]int{}}
	c.tool = tool.Must(tool.New("lookup_order", "Looks up an order.", func(ctx context.Context, in campaignInput) (tool.Result, error) {
		c.mu.Lock()
		c.runs[toolrunner.CallID(ctx)]++
		c.mu.Unlock()
		switch in.kind() {
		case "fail":
			return tool.Result{}, errors.New("the order service is down")
		case "slow":
			<-ctx.Done() // the runner's tool timeout ends it
			return tool.Result{}, ctx.Err()
		}
		return tool.Text("order " + in.OrderID + " shipped"), nil
	}))
	return c
}

func (c *campaignTools) all() []tool.Tool { return []tool.Tool{c.tool} }

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
	return o.transport.RoundTrip(req)
}

// OnEnd records a call's retries.
func (o *campaignObserver) OnEnd(s sdktrace.ReadOnlySpan) {
	if !o.counting.Load() || s.SpanKind() != trace.SpanKindClient {
		return
	}
	n := 0
	for _, kv := range s.Attributes() {
		if kv.Key == tracing.HTTPRequestResends {
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
// source that mints a fresh identity JWT for every exchange.
type campaignFederation struct {
	creds  *auth.FederationCredentials
	minted atomic.Int64 // identity tokens handed to the source: one per exchange attempt
}

func newCampaignFederation(t *testing.T, env *reftest.Env, clock *refserver.ManualClock) *campaignFederation {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	const issuer, subject, kid = "https://idp.example.com", "system:serviceaccount:prod:campaign", "k1"
	issuerID, err := env.Server.AddFederationIssuer(refserver.FederationIssuer{Name: "campaign-idp", IssuerURL: issuer,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}}}})
	require.NoError(t, err)
	saID := env.Server.CreateServiceAccount("campaign")
	ruleID, err := env.Server.AddFederationRule(refserver.FederationRule{Name: "campaign", IssuerID: issuerID,
		SubjectPrefix: subject, ServiceAccountID: saID, WorkspaceIDs: []string{env.Seed.DefaultWorkspaceID},
		TokenLifetimeSeconds: 120})
	require.NoError(t, err)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	require.NoError(t, err)

	f := &campaignFederation{}
	f.creds, err = auth.Federation(auth.FederationConfig{
		BaseURL: env.URL, FederationRuleID: ruleID, OrganizationID: env.Seed.OrganizationID, ServiceAccountID: saID,
		Clock: clock, MaxRetries: 8, MaxRetryWait: reftest.FastRetryWait,
		IdentityToken: func(context.Context) (string, error) {
			f.minted.Add(1)
			now := clock.Now()
			claims, err := json.Marshal(map[string]any{"iss": issuer, "sub": subject, "aud": "https://api.vendor.com",
				"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": rand.Text()})
			if err != nil {
				return "", err
			}
			jws, err := signer.Sign(claims)
			if err != nil {
				return "", err
			}
			return jws.CompactSerialize()
		},
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.creds.Close() })
	return f
}
