package sessions

import (
	"errors"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// The scripted agent's queued turns: ScriptSession and ScriptAgent compile
// steps (package script) into the Ops the engine runs.

// errScript prefixes every scripting error.
var errScript = errors.New("refserver: script")

// ScriptSession queues turns for a session: each turn-starting event
// (user.message, user.define_outcome) takes the next one.
func (s *Service) ScriptSession(sessionID string, turns ...[]script.Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions.byID[sessionID]
	if !ok {
		return fmt.Errorf("%w: session %q not found", errScript, sessionID)
	}
	spawns := x.eng.liveChildren()
	for _, turn := range x.eng.script {
		spawns += script.CountSpawns(turn)
	}
	compiled, err := compileTurns(turns, x.agent, spawns)
	if err != nil {
		return err
	}
	x.eng.script = append(x.eng.script, compiled...)
	return nil
}

// ScriptAgent queues turns for every session of the agent created from now
// on (by Create Session or a deployment), in addition to the turns already
// queued for it.
func (s *Service) ScriptAgent(agentID string, turns ...[]script.Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	latest, ok := s.deps.LatestAgentLocked(agentID)
	if !ok {
		return fmt.Errorf("%w: agent %q not found", errScript, agentID)
	}
	spawns := 0
	for _, turn := range s.scripts.byAgent[agentID] {
		spawns += script.CountSpawns(turn)
	}
	compiled, err := compileTurns(turns, latest, spawns)
	if err != nil {
		return err
	}
	if s.scripts.byAgent == nil {
		s.scripts.byAgent = map[string][][]script.Op{}
	}
	s.scripts.byAgent[agentID] = append(s.scripts.byAgent[agentID], compiled...)
	return nil
}

// compileTurns checks turns for agent (Spawn names are looked up in its
// roster); spawns counts the child threads already made or queued.
func compileTurns(turns [][]script.Step, agent *agents.Version, spawns int) ([][]script.Op, error) {
	inRoster := func(name string) bool {
		_, ok := resolveThreadAgent(agent, name)
		return ok
	}
	compiled, err := script.Compile(turns, inRoster, spawns)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errScript, err)
	}
	return compiled, nil
}

// ReleaseSession continues every held turn of the session.
func (s *Service) ReleaseSession(sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions.byID[sessionID]
	if !ok {
		return fmt.Errorf("refserver: session %q not found", sessionID)
	}
	if !x.eng.release(s.now()) {
		return fmt.Errorf("refserver: session %q has no held turn", sessionID)
	}
	return nil
}

// scriptState is the turns ScriptAgent queued, copied into each new session
// of the agent. Guarded by Deps.Lock.
type scriptState struct {
	byAgent map[string][][]script.Op
}

func (s *Service) agentScriptLocked(agentID string) [][]script.Op {
	turns := s.scripts.byAgent[agentID]
	return append([][]script.Op(nil), turns...)
}
