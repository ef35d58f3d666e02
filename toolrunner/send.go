package toolrunner

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/backoff"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Retries of an answer on top of the pipeline's own: the wait doubles from
// minSendWait up to maxSendWait, less some jitter, unless the server asks
// for another (retry-after), which is honoured up to maxSendWait.
const (
	minSendWait = 500 * time.Millisecond
	maxSendWait = 30 * time.Second
)

// Whether an answer whose sending failed is sent again.
type sendStatus uint8

const (
	sendGoOn     sendStatus = iota // the session still waits for it
	sendAnswered                   // the stream shows the call answered: maybe ours, whose response was lost
	sendClosed                     // an interrupt or the turn's end closed the call
	sendEnded                      // the session is over
	sendStopped                    // the runner stopped following the session: the answer is owed
)

// sendState says whether c's answer is still wanted, and if not, why.
func (f *follower) sendState(c *call) sendStatus {
	switch cause := context.Cause(c.ctx); {
	case errors.Is(cause, errAnswered):
		return sendAnswered
	case errors.Is(cause, errInterrupted):
		return sendClosed
	}
	switch {
	case f.hardCtx.Err() != nil:
		if errors.Is(context.Cause(f.hardCtx), errEnded) {
			return sendEnded
		}
		return sendStopped
	case f.retryCtx.Err() != nil:
		return sendStopped
	}
	return sendGoOn
}

// send sends one answer until it is recorded or no longer wanted. The
// pipeline already retries transient failures; when a failure outlives
// those retries, send tries again, with backoff, under the same
// Idempotency-Key, so that a send whose response was lost cannot answer
// twice, for as long as the runner follows the session. It stops without
// an error when the call is no longer pending: a 409 (answered elsewhere,
// closed by an interrupt, the session archived or terminated), a 404 (the
// session deleted), an interrupt or the turn's end seen on the stream, or
// the session's end. When the runner stops following the session first,
// the answer is left for the session's end error. It returns the error
// when the API refuses the answer itself (see refused), which sending it
// again cannot fix.
func (f *follower) send(ctx context.Context, c *call, a UnsentAnswer) error {
	log := f.log
	opts := append(slices.Clip(f.r.cfg.requestOpts), option.WithHeader("Idempotency-Key", "toolrunner-"+rand.Text()))
	params := sessions.SendParams{Events: []sessions.EventParam{a.Param()}}
	confirming := false
	for failures := 0; ; failures++ {
		_, err := f.r.events.Send(ctx, f.id, params, opts...)
		if err == nil {
			log.Debug("toolrunner: answer accepted", "call_id", c.id)
			if obs := f.r.cfg.observe; obs != nil {
				obs(f.id, c.id, c.received, time.Now())
			}
			return nil
		}
		var apiErr *apierror.Error
		switch {
		case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusConflict && !apiErr.Temporary():
			log.Info("toolrunner: answer refused: the call is no longer pending", "call_id", c.id, "tool", c.name, "error", apiErr.Message)
			return nil
		case errors.Is(err, apierror.ErrNotFound):
			log.Info("toolrunner: answer not sent: the session no longer exists", "call_id", c.id, "tool", c.name)
			return nil
		case refused(err):
			return err
		}
		if f.sendState(c) == sendGoOn {
			wait := sendWait(err, failures)
			level := slog.LevelWarn
			if apiErr != nil && (apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden) {
				level = slog.LevelError // retried, but it takes someone to fix it
			}
			log.Log(context.Background(), level, "toolrunner: sending the answer failed; retrying",
				"call_id", c.id, "tool", c.name, "error", err.Error(), "attempt", failures+1, "wait", wait)
			f.await(c, wait)
		}
		switch f.sendState(c) {
		case sendGoOn:
		case sendAnswered:
			if !confirming {
				// Once more, at once: the same key replays our answer's
				// response if it was ours, and gets a 409 if not.
				log.Debug("toolrunner: sending the answer failed, but the call's answer is recorded; confirming under the same key",
					"call_id", c.id, "error", err.Error())
				confirming = true
				continue
			}
			log.Debug("toolrunner: the call's answer is recorded; not retrying", "call_id", c.id, "error", err.Error())
			return nil
		case sendClosed:
			log.Debug("toolrunner: answer not sent: the call was closed", "call_id", c.id, "error", err.Error())
			return nil
		case sendEnded:
			log.Debug("toolrunner: answer not sent: the session has ended", "call_id", c.id, "error", err.Error())
			return nil
		case sendStopped:
			log.Warn("toolrunner: answer not sent: the runner stopped following the session; reported in its end error",
				"call_id", c.id, "tool", c.name, "error", err.Error())
			f.left.answer(c, a)
			return err
		}
	}
}

// await waits d, or until c's answer may no longer be wanted.
func (f *follower) await(c *call, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.ctx.Done(): // includes the runner stopping (hardCtx)
	case <-f.retryCtx.Done():
	}
}

// sendWait is the wait before sending an answer again after failures
// failed attempts: what the server asked for, else the backoff.
func sendWait(err error, failures int) time.Duration {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		if d, ok := pipeline.RetryAfter(apiErr.Header); ok {
			return min(d, maxSendWait)
		}
	}
	return backoff.Jittered(minSendWait, maxSendWait, failures)
}

// refused reports an answer the API refuses as such (a 400, a request
// refused locally, or any other 4xx about the request), which sending it
// again cannot fix. A refused credential (401, 403) is not about the
// answer: it may be fixed while the runner follows the session, so that
// answer is retried.
func refused(err error) bool {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden) {
		return false
	}
	return permanent(err)
}
