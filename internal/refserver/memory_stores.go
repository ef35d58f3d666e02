package refserver

// Memory stores, memories and memory versions (docs/managed-agents-wire.md section 10).

type memoryState struct{}

func (s *Server) memoryRoutes() []route { return nil }
