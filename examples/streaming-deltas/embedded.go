package main

import "github.com/agentplatform/agentplatform-go/platformtest"

// scriptEmbeddedAgent makes the embedded server's agent think, then write
// its reply in fragments, as a model streams it. Against the real API (srv
// is nil) it does nothing: the model writes.
func scriptEmbeddedAgent(srv *platformtest.Server, agentID string) error {
	if srv == nil {
		return nil
	}
	return srv.ScriptAgent(agentID, []platformtest.Step{
		platformtest.Think("A lighthouse, a storm, a ship."),
		platformtest.SayChunks("Every night the old keeper ", "lit the lamp for ships ", "that never came. ",
			"One stormy night, ", "a small boat followed the light home."),
	})
}
