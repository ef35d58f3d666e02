package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Checking a script when it is queued (ScriptSession, ScriptAgent), so that
// a bad script fails there, with a message naming the turn and step, rather
// than in the middle of a turn; tool inputs and Emit payloads are encoded
// once here.

// compileTurns checks turns and encodes their JSON parts once, so that a
// bad script fails at ScriptSession rather than in the middle of a turn.
// agent is the agent the turns will run as (Spawn names are looked up in
// its roster); spawns counts the child threads already made or queued.
func compileTurns(turns [][]Step, agent *agentVersion, spawns int) ([][]Step, error) {
	out := make([][]Step, len(turns))
	for i, turn := range turns {
		steps, err := compileSteps(turn, agent, false)
		if err != nil {
			return nil, fmt.Errorf("%w: turn %d: %w", errScript, i, err)
		}
		spawns += countSpawns(steps)
		out[i] = steps
	}
	if spawns > maxChildThreads {
		return nil, fmt.Errorf("%w: at most %d child threads per session", errScript, maxChildThreads)
	}
	return out, nil
}

func compileSteps(steps []Step, agent *agentVersion, inChild bool) ([]Step, error) {
	out := make([]Step, len(steps))
	for j, st := range steps {
		if err := compileStep(&st, agent, inChild); err != nil {
			return nil, fmt.Errorf("step %d: %w", j, err)
		}
		out[j] = st
	}
	return out, nil
}

func compileStep(st *Step, agent *agentVersion, inChild bool) error {
	if v := st.cfg.verdict; v != "" && v != "allow" && v != "deny" && v != "ask" {
		return fmt.Errorf("verdict %q: must be allow, deny or ask", v)
	}
	switch st.kind {
	case 0:
		return errors.New("the zero Step does nothing; use a constructor")
	case stepSay:
		if st.text == "" {
			return errors.New("Say: the text must not be empty")
		}
	case stepUseTool, stepUseMCPTool, stepUseCustomTool:
		if st.name == "" || (st.kind == stepUseMCPTool && st.server == "") {
			return errors.New("tool steps need a tool name (and an MCP server name)")
		}
		raw, err := objectJSON(st.input)
		if err != nil {
			return fmt.Errorf("tool input: %w", err)
		}
		st.raw = raw
	case stepEmit:
		if st.name == "" || strings.ContainsAny(st.name, "\r\n") {
			return errors.New("Emit: the event type must be one non-empty line")
		}
		p := map[string]any{}
		for k, v := range st.payload {
			if k != "id" && k != "processed_at" && k != "type" {
				p[k] = v
			}
		}
		raw, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("Emit payload: %w", err)
		}
		st.raw = raw
	case stepFirehose:
		if st.n < 1 {
			return errors.New("Firehose: n must be at least 1")
		}
	case stepReschedule, stepTerminate:
		// Their events are the session's status (docs/session-events-wire.md
		// 6.6, 6.9); a
		// child thread's retry or termination has thread-level events of
		// its own, which the engine does not produce.
		if inChild {
			return errors.New("Reschedule and Terminate: only on the primary thread, not in a Spawn")
		}
	case stepSpawn:
		if inChild {
			return errors.New("Spawn: a child thread cannot spawn (depth limit 1)")
		}
		if _, ok := resolveThreadAgent(agent, st.name); !ok {
			return fmt.Errorf("Spawn: agent %q is not in the coordinator's roster", st.name)
		}
		child, err := compileSteps(st.steps, agent, true)
		if err != nil {
			return err
		}
		st.steps = child
	}
	return nil
}

// objectJSON encodes a tool input, which must be a JSON object (nil is {}).
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
	if !json.Valid(raw) || maKind(raw) != '{' {
		return nil, errors.New("must encode as a JSON object")
	}
	return maCompact(raw), nil
}
