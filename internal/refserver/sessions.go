package refserver

// Sessions and session resources (docs/managed-agents-wire.md sections 6 and 7).

type sessionState struct{}

func (s *Server) sessionRoutes() []route { return nil }
