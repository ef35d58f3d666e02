package main

import "github.com/agentplatform/agentplatform-go/platformtest"

// scriptEmbeddedAgent tells the embedded server's agent what to do in its
// sessions' first turn. A real model decides this by itself, so against
// the real API (srv is nil) this does nothing.
func scriptEmbeddedAgent(srv *platformtest.Server, agentID string) error {
	if srv == nil {
		return nil
	}
	return srv.ScriptAgent(agentID, []platformtest.Step{
		platformtest.UseTool("write", map[string]any{"file_path": "notes/todo.md",
			"content": "- [ ] water the plants\n- [ ] answer the mail\n"}),
		platformtest.UseTool("bash", map[string]any{"command": "ls -R notes"}),
		platformtest.UseTool("edit", map[string]any{"file_path": "notes/todo.md",
			"old_string": "- [ ] water", "new_string": "- [x] water"}),
		platformtest.UseTool("read", map[string]any{"file_path": "notes/todo.md"}),
		platformtest.Say("Done: the first item is checked off."),
	})
}
