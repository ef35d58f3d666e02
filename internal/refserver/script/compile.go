package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Checking a script when it is queued, so that a bad script fails there,
// with a message naming the turn and step, rather than in the middle of a
// turn; tool inputs and Emit payloads are encoded once here.

// MaxChildThreads is the real platform's limit on child threads that are
// not archived (docs/session-events-wire.md 7.1): it bounds the Spawn steps
// queued for a session plus its children not archived.
const MaxChildThreads = 25

// Compile checks turns and encodes their JSON parts once. inRoster reports
// whether an agent name is in the roster of the agent the turns will run
// as (Spawn names one); spawns counts the session's child threads not
// archived and those already queued. Errors name the turn and step ("turn 0: step 2:
// ..."); a step built wrong (the zero Step, an option on a step that takes
// none) is reported first, wherever it is, before what the steps say is
// checked.
func Compile(turns [][]Step, inRoster func(agentName string) bool, spawns int) ([][]Op, error) {
	for i, turn := range turns {
		if err := checkBuilt(turn); err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
	}
	out := make([][]Op, len(turns))
	for i, turn := range turns {
		ops, err := compileSteps(turn, inRoster, false)
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
		spawns += CountSpawns(ops)
		out[i] = ops
	}
	if spawns > MaxChildThreads {
		return nil, fmt.Errorf("at most %d child threads per session", MaxChildThreads)
	}
	return out, nil
}

// checkBuilt reports the first step of steps, Spawns' steps included,
// that a constructor did not make or that With refused.
func checkBuilt(steps []Step) error {
	for j, st := range steps {
		err := st.err
		switch {
		case st.kind == 0:
			err = errors.New("the zero Step does nothing; use a constructor")
		case err == nil && st.kind == KindSpawn:
			err = checkBuilt(st.steps)
		}
		if err != nil {
			return fmt.Errorf("step %d: %w", j, err)
		}
	}
	return nil
}

func compileSteps(steps []Step, inRoster func(string) bool, inChild bool) ([]Op, error) {
	out := make([]Op, len(steps))
	for j, st := range steps {
		op, err := compileStep(st, inRoster, inChild)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", j, err)
		}
		out[j] = op
	}
	return out, nil
}

func compileStep(st Step, inRoster func(string) bool, inChild bool) (Op, error) {
	op := Op{Kind: st.kind, Text: st.text, Chunks: st.chunks, Name: st.name, Server: st.server, N: st.n,
		Verdict: st.cfg.verdict, Output: st.cfg.output, Tokens: st.cfg.tokens, Outcome: st.cfg.outcome}
	if v := op.Verdict; v != "" && v != "allow" && v != "deny" && v != "ask" {
		return op, fmt.Errorf("verdict %q: must be allow, deny or ask", v)
	}
	switch st.kind {
	case KindSay:
		if st.text == "" {
			return op, errors.New("Say: the text must not be empty")
		}
	case KindUseTool, KindUseMCPTool, KindUseCustomTool:
		if st.name == "" || (st.kind == KindUseMCPTool && st.server == "") {
			return op, errors.New("tool steps need a tool name (and an MCP server name)")
		}
		raw, err := objectJSON(st.input)
		if err != nil {
			return op, fmt.Errorf("tool input: %w", err)
		}
		op.Raw = raw
	case KindEmit:
		if st.name == "" || strings.ContainsAny(st.name, "\r\n") {
			return op, errors.New("Emit: the event type must be one non-empty line")
		}
		p := map[string]any{}
		for k, v := range st.payload {
			if k != "id" && k != "processed_at" && k != "type" {
				p[k] = v
			}
		}
		raw, err := json.Marshal(p)
		if err != nil {
			return op, fmt.Errorf("Emit payload: %w", err)
		}
		op.Raw = raw
	case KindFirehose:
		if st.n < 1 {
			return op, errors.New("Firehose: n must be at least 1")
		}
	case KindReschedule, KindTerminate:
		// Their events are the session's status (docs/session-events-wire.md
		// 6.6, 6.9); a child thread's retry or termination has thread-level
		// events of its own, which the engine does not produce.
		if inChild {
			return op, errors.New("Reschedule and Terminate: only on the primary thread, not in a Spawn")
		}
	case KindSpawn:
		if inChild {
			return op, errors.New("Spawn: a child thread cannot spawn (depth limit 1)")
		}
		if !inRoster(st.name) {
			return op, fmt.Errorf("Spawn: agent %q is not in the coordinator's roster", st.name)
		}
		child, err := compileSteps(st.steps, inRoster, true)
		if err != nil {
			return op, err
		}
		op.Steps = child
	}
	return op, nil
}

// objectJSON encodes a tool input, which must be a JSON object (nil is {}),
// compactly.
func objectJSON(v any) (json.RawMessage, error) {
	var raw []byte
	switch in := v.(type) {
	case nil:
		return json.RawMessage(`{}`), nil
	case json.RawMessage:
		raw = in
	case []byte:
		raw = in
	default:
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	if t := bytes.TrimSpace(raw); !json.Valid(raw) || len(t) == 0 || t[0] != '{' {
		return nil, errors.New("must encode as a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return json.RawMessage(b.Bytes()), nil
}
