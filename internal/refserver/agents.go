package refserver

// Agents (docs/managed-agents-wire.md section 4).

type agentState struct{}

func (s *Server) agentRoutes() []route { return nil }
