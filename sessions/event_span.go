package sessions

// Span events (docs/session-events-wire.md 4.13, 4.14): model requests and
// outcome evaluations.

// SpanModelRequestStartEvent says the agent started a model request.
type SpanModelRequestStartEvent struct{ EventMeta }

// SpanModelRequestEndEvent says a model request ended. It closes the
// previews of its request (see Previews).
type SpanModelRequestEndEvent struct {
	EventMeta
	ModelRequestStartID string // the matching SpanModelRequestStartEvent
	// IsError is true when the request failed; an interrupted request is
	// not an error.
	IsError    bool
	ModelUsage ModelUsage
}

// ModelUsage is the token usage of one model request, or of the grader's
// requests of one outcome evaluation.
type ModelUsage struct {
	InputTokens              int64 // uncached input
	OutputTokens             int64 // thinking included
	CacheCreationInputTokens int64 // written to the prompt cache
	CacheReadInputTokens     int64 // read from the prompt cache
	Speed                    string
}

// TotalInputTokens is all the input of the request: uncached, cache writes
// and cache reads (what a span's gen_ai.usage.input_tokens counts).
func (u ModelUsage) TotalInputTokens() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// SpanOutcomeEvaluationStartEvent says the grader started evaluating an
// outcome; Iteration is 0 for the first evaluation.
type SpanOutcomeEvaluationStartEvent struct {
	EventMeta
	OutcomeID string
	Iteration int
}

// SpanOutcomeEvaluationOngoingEvent is a heartbeat while the grader runs.
type SpanOutcomeEvaluationOngoingEvent struct {
	EventMeta
	OutcomeID string
	Iteration int
}

// SpanOutcomeEvaluationEndEvent says an evaluation ended with Result.
type SpanOutcomeEvaluationEndEvent struct {
	EventMeta
	OutcomeID                string
	OutcomeEvaluationStartID string
	Iteration                int
	// Result is OutcomeSatisfied, OutcomeNeedsRevision (another cycle
	// follows), OutcomeMaxIterationsReached, OutcomeFailed,
	// OutcomeInterrupted, or a value this SDK does not know.
	Result      OutcomeResult
	Explanation string
	Usage       ModelUsage
}

// Evaluation results besides OutcomeSatisfied.
const (
	OutcomeNeedsRevision        OutcomeResult = "needs_revision"
	OutcomeMaxIterationsReached OutcomeResult = "max_iterations_reached"
	OutcomeFailed               OutcomeResult = "failed"
	OutcomeInterrupted          OutcomeResult = "interrupted"
)

func (*SpanModelRequestStartEvent) Type() string        { return EventSpanModelRequestStart }
func (*SpanModelRequestEndEvent) Type() string          { return EventSpanModelRequestEnd }
func (*SpanOutcomeEvaluationStartEvent) Type() string   { return EventSpanOutcomeEvaluationStart }
func (*SpanOutcomeEvaluationOngoingEvent) Type() string { return EventSpanOutcomeEvaluationOngoing }
func (*SpanOutcomeEvaluationEndEvent) Type() string     { return EventSpanOutcomeEvaluationEnd }

func (r *jsonReader) modelUsage() ModelUsage {
	var u ModelUsage
	r.object(func(key string) {
		switch key {
		case "input_tokens":
			u.InputTokens = r.int()
		case "output_tokens":
			u.OutputTokens = r.int()
		case "cache_creation_input_tokens":
			u.CacheCreationInputTokens = r.int()
		case "cache_read_input_tokens":
			u.CacheReadInputTokens = r.int()
		case "speed":
			u.Speed = r.str()
		default:
			r.skip()
		}
	})
	return u
}

func (e *SpanModelRequestEndEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "model_request_start_id":
		e.ModelRequestStartID = r.str()
	case "is_error":
		e.IsError = r.boolean()
	case "model_usage":
		e.ModelUsage = r.modelUsage()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func decodeOutcomeField(m *EventMeta, outcomeID *string, iteration *int, r *jsonReader, key string) {
	switch key {
	case "outcome_id":
		*outcomeID = r.str()
	case "iteration":
		*iteration = int(r.int())
	default:
		m.decodeField(r, key)
	}
}

func (e *SpanOutcomeEvaluationStartEvent) decodeField(r *jsonReader, key string) {
	decodeOutcomeField(&e.EventMeta, &e.OutcomeID, &e.Iteration, r, key)
}

func (e *SpanOutcomeEvaluationOngoingEvent) decodeField(r *jsonReader, key string) {
	decodeOutcomeField(&e.EventMeta, &e.OutcomeID, &e.Iteration, r, key)
}

func (e *SpanOutcomeEvaluationEndEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "outcome_evaluation_start_id":
		e.OutcomeEvaluationStartID = r.str()
	case "result":
		e.Result = OutcomeResult(r.str())
	case "explanation":
		e.Explanation = r.str()
	case "usage":
		e.Usage = r.modelUsage()
	default:
		decodeOutcomeField(&e.EventMeta, &e.OutcomeID, &e.Iteration, r, key)
	}
}
