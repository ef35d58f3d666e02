package sessions

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
)

// Usage accounting (docs/session-events-wire.md section 8). Token usage is
// added per span.model_request_end and per span.outcome_evaluation_end;
// web searches as they run; active time while the session is running. The
// exact cost is kept in integer nano-dollars (nUSD), so both sides of the
// wire agree to the unit; list_cost shows it in whole cents, half up, and
// budgets are enforced on the exact value.

const (
	nanoPerCent         = 10_000_000 // 1 cent in nUSD
	webSearchNano       = 10_000_000 // $10 per 1,000 searches
	defaultInputTokens  = 1000       // a model request's usage when its steps set no Tokens
	defaultOutputTokens = 100
)

// price is a model's list price in nUSD per token ($1 per million tokens
// is 1,000 nUSD per token).
type price struct{ input, output, write5m, write1h, read int64 }

// priceTable is the table of docs/session-events-wire.md 8.2; other models
// have no list price.
var priceTable = map[string]price{
	"vendor-haiku-5-5":  {input: 100, output: 500, write5m: 125, write1h: 200, read: 10},
	"vendor-sonnet-5-5": {input: 2000, output: 10000, write5m: 2500, write1h: 4000, read: 100},
	"vendor-opus-5-5":   {input: 4000, output: 20000, write5m: 5000, write1h: 8000, read: 200},
}

type tokenCount struct {
	input, output, cacheCreation, cacheRead int64
}

func (t *tokenCount) add(u tokenCount) {
	t.input += u.input
	t.output += u.output
	t.cacheCreation += u.cacheCreation
	t.cacheRead += u.cacheRead
}

// nano prices t at model (fast doubles every token price,
// docs/session-events-wire.md 8.2). Cache writes are all 5-minute entries
// (same document, section 11, choice 23).
func (t tokenCount) nano(model agents.ModelConfig) int64 {
	p := priceTable[model.ID]
	n := t.input*p.input + t.output*p.output + t.cacheCreation*p.write5m + t.cacheRead*p.read
	if model.Speed == "fast" {
		n *= 2
	}
	return n
}

type modelUsageJSON struct {
	InputTokens              int64  `json:"input_tokens"`
	OutputTokens             int64  `json:"output_tokens"`
	CacheCreationInputTokens int64  `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64  `json:"cache_read_input_tokens"`
	Speed                    string `json:"speed"`
}

func (t tokenCount) view(speed string) modelUsageJSON {
	return modelUsageJSON{InputTokens: t.input, OutputTokens: t.output,
		CacheCreationInputTokens: t.cacheCreation, CacheReadInputTokens: t.cacheRead, Speed: speed}
}

// account is the part of a session's usage that is not on the wire as is.
type account struct {
	tokensNano   int64
	active       time.Duration
	running      bool
	runningSince time.Time
}

// exactNano is the exact consumed cost: tokens, searches, and running time
// at $0.08 per hour, recomputed from the total so it never drifts.
func (a *account) exactNano(x *session) int64 {
	ms := a.active.Milliseconds()
	return a.tokensNano + x.usage.webSearchRequests*webSearchNano + (ms*400+9)/18
}

func (a *account) startActive(now time.Time) {
	if !a.running {
		a.running, a.runningSince = true, now
	}
}

func (a *account) stopActive(now time.Time) {
	a.settle(now)
	a.running = false
}

// settle adds the running time up to now.
func (a *account) settle(now time.Time) {
	if a.running && now.After(a.runningSince) {
		a.active += now.Sub(a.runningSince)
		a.runningSince = now
	}
}

// touch brings x.usage and stats up to now. A terminated session's are
// final: its duration ends at the termination (docs/session-events-wire.md
// 8.1).
func (a *account) touch(x *session, now time.Time) {
	if x.status == statusTerminated {
		return
	}
	a.settle(now)
	u := &x.usage
	u.activeSeconds = float64(a.active.Milliseconds()) / 1000
	u.listCost = (a.exactNano(x) + nanoPerCent/2) / nanoPerCent
	if d := now.Sub(x.createdAt); d > 0 {
		u.durationSeconds = d.Seconds()
	}
}

// charge adds one request's (or grader cycle's) usage at model's prices.
func (e *engine) charge(model agents.ModelConfig, t tokenCount) {
	u := &e.x.usage
	u.inputTokens += t.input
	u.outputTokens += t.output
	u.cacheCreation5m += t.cacheCreation
	u.cacheReadInputTokens += t.cacheRead
	e.acct.tokensNano += t.nano(model)
	e.refreshUsage()
}

func (e *engine) refreshUsage() { e.acct.touch(e.x, e.now) }

// usageView is the session's usage object (docs/managed-agents-wire.md 6.1),
// as the session
// and session.usage show it.
func (x *session) usageView() usageJSON {
	u := x.usage
	return usageJSON{
		ActiveSeconds:        u.activeSeconds,
		CacheCreation:        cacheCreationJSON{Ephemeral1hInputTokens: u.cacheCreation1h, Ephemeral5mInputTokens: u.cacheCreation5m},
		CacheReadInputTokens: u.cacheReadInputTokens,
		InputTokens:          u.inputTokens,
		OutputTokens:         u.outputTokens,
		ListCost:             usd(u.listCost),
		ServerToolUse:        serverToolUseJSON{WebFetchRequests: u.webFetchRequests, WebSearchRequests: u.webSearchRequests},
	}
}

type sessionUsageEventJSON struct {
	Usage  usageJSON   `json:"usage"`
	Budget *budgetJSON `json:"budget"`
}

// emitUsage records session.usage: the totals at this moment.
func (e *engine) emitUsage() {
	e.refreshUsage()
	e.emit("session.usage", sessionUsageEventJSON{Usage: e.x.usageView(), Budget: e.x.budget.view()})
}
