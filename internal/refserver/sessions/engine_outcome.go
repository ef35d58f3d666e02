package sessions

import (
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// Outcomes (docs/session-events-wire.md 6.7, 4.14): a user.define_outcome
// gives the primary
// thread's work a rubric. When the agent considers the deliverable ready (a
// step with the Outcome option, or the end of the turn's steps) a grader
// cycle runs: span.outcome_evaluation_start, span.outcome_evaluation_end.
// needs_revision lets the turn continue; any other result is terminal and
// adds an entry to the session's outcome_evaluations.

const (
	graderInputTokens  = 500
	graderOutputTokens = 50
	defaultMaxIter     = 3
)

type outcome struct {
	id, description string
	maxIterations   int
	iteration       int // of the next evaluation, 0-indexed
}

// defineOutcome makes the outcome active. A turn already in progress works
// on it; otherwise it starts (or joins) the primary's next turn.
func (e *engine) defineOutcome(id, description string, maxIterations int) {
	if e.outcome != nil {
		// Send Events refuses this (409); only a list of initial events
		// can carry two, and the first stays the active one.
		return
	}
	e.outcome = &outcome{id: id, description: description, maxIterations: maxIterations}
	switch {
	case e.primary.turn != nil:
	case e.trigger != nil:
		if e.trigger.outcome == "" {
			e.trigger.outcome = description
		}
	default:
		e.trigger = &turnTrigger{outcome: description}
	}
}

// evaluateMidTurn runs the evaluation a step asked for; it reports whether
// the turn ends (a terminal result other than max_iterations_reached, after
// which one final stretch of work follows, docs/session-events-wire.md 6.7).
func (e *engine) evaluateMidTurn(th *thread, v *script.Evaluation) bool {
	if th.child || e.outcome == nil {
		return false
	}
	result := e.evaluate(v)
	return result != "needs_revision" && result != "max_iterations_reached"
}

// evaluateAtEnd evaluates the active outcome when the primary's steps are
// done, until the result is terminal (an unscripted evaluation is
// satisfied).
func (e *engine) evaluateAtEnd(th *thread) {
	for !th.child && e.outcome != nil {
		e.evaluate(nil)
	}
}

// evaluate runs one grader cycle and returns its result.
func (e *engine) evaluate(v *script.Evaluation) string {
	o := e.outcome
	result, explanation := "satisfied", ""
	if v != nil {
		if v.Result != "" {
			result = v.Result
		}
		explanation = v.Explanation
	}
	if o.iteration >= o.maxIterations {
		result, explanation = "max_iterations_reached", "The outcome reached its maximum number of evaluations."
	}
	if explanation == "" {
		explanation = "Evaluated as " + result + "."
		if result == "satisfied" {
			explanation = "The deliverable meets the rubric."
		}
	}
	start := e.emit("span.outcome_evaluation_start", outcomeSpanJSON{OutcomeID: o.id, Iteration: o.iteration})
	usage := tokenCount{input: graderInputTokens, output: graderOutputTokens}
	model := e.x.agent.Model // the grader is priced at the session agent's model (docs/session-events-wire.md 11, choice 21)
	e.emit("span.outcome_evaluation_end", outcomeEndJSON{OutcomeID: o.id, StartID: start.id, Iteration: o.iteration,
		Result: result, Explanation: explanation, Usage: usage.view(model.Speed)})
	e.charge(model, usage)
	if result == "needs_revision" {
		o.iteration++
		return result
	}
	e.evaluations = append(e.evaluations, outcomeEvaluationJSON{Type: "outcome_evaluation", OutcomeID: o.id,
		Description: o.description, Explanation: explanation, Iteration: o.iteration, Result: result,
		CompletedAt: kit.Timestamp(e.now)})
	e.outcome = nil
	return result
}

// outcomeEvaluations is the session's outcome_evaluations ([] when none).
func (x *session) outcomeEvaluations() []outcomeEvaluationJSON {
	if x.eng == nil || len(x.eng.evaluations) == 0 {
		return []outcomeEvaluationJSON{}
	}
	return x.eng.evaluations
}

type outcomeSpanJSON struct {
	OutcomeID string `json:"outcome_id"`
	Iteration int    `json:"iteration"`
}

type outcomeEndJSON struct {
	OutcomeID   string         `json:"outcome_id"`
	StartID     string         `json:"outcome_evaluation_start_id"`
	Iteration   int            `json:"iteration"`
	Result      string         `json:"result"`
	Explanation string         `json:"explanation"`
	Usage       modelUsageJSON `json:"usage"`
}
