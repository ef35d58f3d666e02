package main

import (
	"github.com/agentplatform/agentplatform-go/examples/internal/exampleenv"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// scriptEmbeddedAgent tells the embedded server's agent what to do in its
// sessions' first turn: call lookup_order, then answer. A real model decides
// this by itself, so against the real API this does nothing.
func scriptEmbeddedAgent(env *exampleenv.Env, agentID string) error {
	return env.ScriptAgent(agentID, []refserver.Step{
		refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
		refserver.Say("Order 1234 has shipped; DHL is delivering it."),
	})
}
