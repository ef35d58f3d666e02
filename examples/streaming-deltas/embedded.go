package main

import (
	"github.com/agentplatform/agentplatform-go/examples/internal/exampleenv"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// scriptEmbeddedAgent makes the embedded server's agent think, then write
// its reply in fragments, as a model streams it. Against the real API it
// does nothing: the model writes.
func scriptEmbeddedAgent(env *exampleenv.Env, agentID string) error {
	return env.ScriptAgent(agentID, []refserver.Step{
		refserver.Think("A lighthouse, a storm, a ship."),
		refserver.SayChunks("Every night the old keeper ", "lit the lamp for ships ", "that never came. ",
			"One stormy night, ", "a small boat followed the light home."),
	})
}
