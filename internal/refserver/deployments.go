package refserver

// Deployments and deployment runs (docs/managed-agents-wire.md sections 8 and 9).

type deploymentState struct{}

func (s *Server) deploymentRoutes() []route { return nil }
