package toolrunner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
)

// UnsentError is a session's end error (Run's result, WithOnSessionEnd)
// when the Runner stopped following the session with calls still waiting
// on it: answers it had but could not get recorded, and calls whose tool
// it cancelled. The session's agent waits for those calls. The Runner
// stops following when Run's context ends, when Remove's or Close's
// context ends before the answers went through, or when the session's
// stream fails for good; Err says which, so errors.Is(err, ErrClosed),
// errors.Is(err, ErrRemoved) and errors.Is(err, context.Canceled) hold as
// they would without it.
//
// Send the Answers yourself (UnsentAnswer.Param), or leave them: the
// session's next runner finds every one of these calls pending and runs it
// again (see "Exactly once" in the package documentation). An answer that
// was in flight when the Runner stopped may have been recorded after all;
// sending it again then gets a 409, which is harmless.
type UnsentError struct {
	SessionID string
	// Answers are the answers the Runner had but did not get recorded, in
	// the order their calls arrived.
	Answers []UnsentAnswer
	// Unanswered are the calls whose tool (or confirm function) was still
	// running, or waiting for a slot, when the Runner stopped: they were
	// cancelled and have no answer. In the order they arrived.
	Unanswered []UnansweredCall
	// Err is why the Runner stopped following the session.
	Err error
}

// UnsentAnswer is an answer the Runner did not get recorded: a custom or
// sandbox tool's result, or a confirmation's decision.
type UnsentAnswer struct {
	// CallID is the id of the call's event, the one the answer names.
	CallID string
	// Tool is the name of the tool called.
	Tool string
	// Result is a tool call's result; zero for a confirmation.
	Result tool.Result
	// Decision is a confirmation's decision; nil for a tool call.
	Decision *Decision
	// Sandbox is set for the result of a sandbox tool (WithSandboxTools),
	// which Param sends as a user.tool_result rather than a
	// user.custom_tool_result.
	Sandbox bool
}

// UnansweredCall is a call the Runner cancelled before it had an answer.
type UnansweredCall struct {
	// CallID is the id of the call's event.
	CallID string
	// Tool is the name of the tool called.
	Tool string
	// Confirmation is set for a built-in or MCP tool call waiting for a
	// confirmation, clear for a tool call the Runner runs.
	Confirmation bool
	// Sandbox is set for a sandbox tool call (WithSandboxTools) the Runner
	// was running, clear for a custom tool call and a confirmation.
	Sandbox bool
}

// Param returns the event that carries the answer, as the Runner would
// have sent it, for sessions.EventsService.Send.
func (a UnsentAnswer) Param() sessions.EventParam {
	if a.Decision != nil {
		return a.Decision.param(a.CallID)
	}
	return resultParam(a.CallID, a.Result, a.Sandbox)
}

func (e *UnsentError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "toolrunner: session %s: stopped following with", e.SessionID)
	if n := len(e.Answers); n > 0 {
		fmt.Fprintf(&b, " %d %s not sent (", n, plural(n, "answer", "answers"))
		for i, a := range e.Answers {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.CallID)
		}
		b.WriteByte(')')
		if len(e.Unanswered) > 0 {
			b.WriteString(" and")
		}
	}
	if n := len(e.Unanswered); n > 0 {
		fmt.Fprintf(&b, " %d %s cancelled unanswered (", n, plural(n, "call", "calls"))
		for i, c := range e.Unanswered {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.CallID)
		}
		b.WriteByte(')')
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns why the Runner stopped following the session.
func (e *UnsentError) Unwrap() error { return e.Err }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// leftCalls collects, from the call goroutines, the calls left waiting
// when the runner stopped following a session, in the order they arrived.
type leftCalls struct {
	mu         sync.Mutex
	answers    []inOrder[UnsentAnswer]
	unanswered []inOrder[UnansweredCall]
}

type inOrder[T any] struct {
	seq uint64 // the call's dispatch order
	v   T
}

func (l *leftCalls) answer(c *call, a UnsentAnswer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answers = append(l.answers, inOrder[UnsentAnswer]{c.seq, a})
}

func (l *leftCalls) unansweredCall(c *call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unanswered = append(l.unanswered, inOrder[UnansweredCall]{c.seq,
		UnansweredCall{CallID: c.id, Tool: c.name, Confirmation: c.confirm != nil, Sandbox: c.sandbox}})
}

// wrap returns err, why the runner stopped following the session, wrapped
// in an *UnsentError when calls were left waiting.
func (l *leftCalls) wrap(sessionID string, err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.answers) == 0 && len(l.unanswered) == 0 {
		return err
	}
	return &UnsentError{SessionID: sessionID, Answers: sorted(l.answers), Unanswered: sorted(l.unanswered), Err: err}
}

func sorted[T any](s []inOrder[T]) []T {
	if len(s) == 0 {
		return nil
	}
	slices.SortFunc(s, func(a, b inOrder[T]) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]T, len(s))
	for i, x := range s {
		out[i] = x.v
	}
	return out
}
