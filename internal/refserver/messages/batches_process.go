package messages

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// How the reference server processes a batch, on its clock:
//
//   - requests run one after the other, in request order, from created_at;
//     each takes batchRequestTime, plus the wait of its delay directive
//     (so a test can make a request slow without waiting for it);
//   - a request runs through the fake model as POST /v1/messages would run
//     it: its result is the message (succeeded) or the error the request
//     would have answered (errored), an invalid request included;
//   - the batch ends when its last request is done; ended_at is then;
//   - a request not done by expires_at (created_at + 24 hours) expires,
//     with every request after it, and the batch ends at expires_at;
//   - cancel makes the batch canceling: the request in flight finishes,
//     then every request not run is canceled and the batch ends.
//
// Nothing runs in the background: a batch is brought up to the clock
// (catchUpLocked) whenever a request reads it, which gives the same
// answers as processing in real time would.

const (
	batchRequestTime = 100 * time.Millisecond
	batchLifetime    = 24 * time.Hour
)

// batch is one message batch.
type batch struct {
	id, workspace string
	betas         map[string]bool // the create call's vendor-beta values, which each request runs with
	version       string          // the create call's API version, whose rules each request follows
	created       time.Time
	expires       time.Time
	cancelAt      time.Time // zero until canceled
	endedAt       time.Time // zero until ended
	reqs          []batchRequest
	// lines are the results file's lines, newline included, of
	// requests [0, len(lines)): processing appends them in request order.
	lines [][]byte
	// at is when the next request (reqs[len(lines)]) started; pending is
	// its result once computed, due at pendingDone.
	at          time.Time
	pending     []byte
	pendingDone time.Time
	pendingOK   bool // pending is a succeeded result, else errored
	counts      batchCountsJSON
}

type batchRequest struct {
	customID string
	params   json.RawMessage // dropped once the request has run
}

// catchUpLocked processes b up to now.
func (s *Service) catchUpLocked(b *batch, now time.Time) {
	for b.endedAt.IsZero() {
		next := len(b.lines)
		switch {
		case next == len(b.reqs):
			b.end(b.at)
			return
		case !b.cancelAt.IsZero() && !b.at.Before(b.cancelAt):
			b.finish(canceledResult, &b.counts.Canceled, b.at)
			return
		}
		if b.pending == nil {
			b.pending, b.pendingDone, b.pendingOK = s.runBatchRequest(b, next)
		}
		if b.pendingDone.After(b.expires) {
			if now.Before(b.expires) {
				return
			}
			b.finish(expiredResult, &b.counts.Expired, b.expires)
			return
		}
		if b.pendingDone.After(now) {
			return
		}
		b.lines = append(b.lines, b.pending)
		if b.pendingOK {
			b.counts.Succeeded++
		} else {
			b.counts.Errored++
		}
		b.reqs[next].params = nil
		b.at, b.pending = b.pendingDone, nil
	}
}

// finish gives every request not run the result res (counting it in n)
// and ends the batch at t.
func (b *batch) finish(res json.RawMessage, n *int, t time.Time) {
	b.pending = nil
	for i := len(b.lines); i < len(b.reqs); i++ {
		b.lines = append(b.lines, resultLine(b.reqs[i].customID, res))
		b.reqs[i].params = nil
		*n++
	}
	b.end(t)
}

func (b *batch) end(t time.Time) { b.endedAt = t }

// runBatchRequest runs request i and returns its results line and when it
// is done, and whether it succeeded.
func (s *Service) runBatchRequest(b *batch, i int) ([]byte, time.Time, bool) {
	req := b.reqs[i]
	cost := batchRequestTime
	res, err := s.runBatchParams(b, req.params, &cost)
	done := b.at.Add(cost)
	if err != nil {
		var ae *kit.APIError
		if !errors.As(err, &ae) {
			ae = kit.NewAPIError(http.StatusInternalServerError, kit.ErrAPI, "Internal server error.")
		}
		body, _ := json.Marshal(erroredJSON{Type: "errored",
			Error: batchErrorJSON{Type: "error", Error: kit.ErrorDetail{Type: ae.Type, Message: ae.Message}}})
		return resultLine(req.customID, body), done, false
	}
	return resultLine(req.customID, res), done, true
}

// runBatchParams runs one request's params through the fake model and
// returns the succeeded result; cost grows by the request's delay.
func (s *Service) runBatchParams(b *batch, params json.RawMessage, cost *time.Duration) (json.RawMessage, error) {
	root, err := parseBody(params)
	if err != nil {
		return nil, err
	}
	r, err := s.validateMessages(root, epCreate, b.betas, b.version, b.workspace)
	if err != nil {
		return nil, err
	}
	d, err := r.directives()
	if err != nil {
		return nil, err
	}
	if r.stream {
		return nil, kit.InvalidField("stream", "a batch request cannot stream")
	}
	*cost += d.delay
	if d.errType != "" {
		return nil, directiveError(d.errType)
	}
	res := s.runModel(r, b.workspace, s.resolveGeo(r, b.workspace))
	return json.Marshal(succeededJSON{Type: "succeeded", Message: res.message(s.cfg.ids("msg_"))})
}

// resultLine is one line of the results file. result is compact JSON
// and a custom_id needs no escaping (customIDPattern), so the line is
// put together as it is, without another pass over the message.
func resultLine(customID string, result json.RawMessage) []byte {
	line := make([]byte, 0, len(customID)+len(result)+len(`{"custom_id":"","result":}`)+1)
	line = append(line, `{"custom_id":"`...)
	line = append(line, customID...)
	line = append(line, `","result":`...)
	line = append(line, result...)
	return append(line, "}\n"...)
}

// status is the batch's processing_status.
func (b *batch) status() string {
	switch {
	case !b.endedAt.IsZero():
		return "ended"
	case !b.cancelAt.IsZero():
		return "canceling"
	}
	return "in_progress"
}

// wire is b as the API returns it to c.
func (b *batch) wire(c *kit.Call) batchJSON {
	counts := b.counts
	if b.endedAt.IsZero() {
		counts.Processing = len(b.reqs) - len(b.lines)
	}
	out := batchJSON{
		ID: b.id, Type: "message_batch", ProcessingStatus: b.status(), RequestCounts: counts,
		CreatedAt: kit.Timestamp(b.created), ExpiresAt: kit.Timestamp(b.expires),
		EndedAt: kit.OptionalTimestamp(b.endedAt), CancelInitiatedAt: kit.OptionalTimestamp(b.cancelAt),
	}
	if !b.endedAt.IsZero() {
		u := resultsURL(c, b.id)
		out.ResultsURL = &u
	}
	return out
}
