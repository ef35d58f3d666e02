package script

import "encoding/json"

// Kind is what a step does.
type Kind uint8

// The kinds of steps, one per constructor (SayChunks is a KindSay), and
// KindSayToolResult, which only the default turn uses.
const (
	KindSay Kind = iota + 1
	KindThink
	KindUseTool
	KindUseMCPTool
	KindUseCustomTool
	KindFail
	KindRefuse
	KindHold
	KindSpawn
	KindEmit
	KindFirehose
	KindReschedule
	KindTerminate
	KindSayToolResult // the default turn's reply after its custom tool call
)

// Op is a compiled step: what the engine runs. Compile makes them from
// Steps, and the default turns (default.go) directly. Ops are values: the
// engine reads them and never changes them.
type Op struct {
	Kind   Kind
	Text   string          // Say, Think, Refuse; the error message of Fail, Reschedule, Terminate
	Chunks []string        // Say; a Say of one text is one chunk
	Name   string          // tool name, Spawn's agent name, Emit's type; the error type of Fail, Reschedule, Terminate
	Server string          // UseMCPTool
	Raw    json.RawMessage // the tool steps' input (a compact JSON object); Emit's payload
	Steps  []Op            // Spawn's child thread
	N      int             // Firehose

	// The options.
	Verdict string      // auto policies: allow, deny, ask; "" unscripted
	Output  *Output     // a built-in or MCP tool's result; nil: "ok"
	Tokens  *Usage      // usage added to the model request; nil: none
	Outcome *Evaluation // the deliverable is ready; nil: not marked
}

// Output is what a tool returns when the server runs it.
type Output struct {
	Text    string
	IsError bool
}

// Usage is a step's token usage.
type Usage struct {
	Input, Output int64
}

// Evaluation is the grader's verdict the Outcome option scripts.
type Evaluation struct {
	Result, Explanation string
}

// ModelStep reports whether the op is part of a model request: every kind
// but Hold, Spawn and Emit.
func (o Op) ModelStep() bool {
	switch o.Kind {
	case KindHold, KindSpawn, KindEmit:
		return false
	}
	return true
}

// CountSpawns is the number of Spawn ops of a turn: each makes one child
// thread.
func CountSpawns(ops []Op) int {
	n := 0
	for _, o := range ops {
		if o.Kind == KindSpawn {
			n++
		}
	}
	return n
}
