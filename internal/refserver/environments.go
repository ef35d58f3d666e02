package refserver

// Environments (docs/managed-agents-wire.md section 5).

type environmentState struct{}

func (s *Server) environmentRoutes() []route { return nil }
