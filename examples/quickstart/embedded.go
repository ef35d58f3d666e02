package main

import "github.com/agentplatform/agentplatform-go/platformtest"

// scriptEmbeddedAgent tells the embedded server's agent what to do in its
// sessions' first turn: call lookup_order, then answer. A real model decides
// this by itself, so against the real API (srv is nil) this does nothing.
func scriptEmbeddedAgent(srv *platformtest.Server, agentID string) error {
	if srv == nil {
		return nil
	}
	return srv.ScriptAgent(agentID, []platformtest.Step{
		platformtest.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
		platformtest.Say("Order 1234 has shipped; DHL is delivering it."),
	})
}
