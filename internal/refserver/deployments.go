package refserver

import "time"

// Deployments and deployment runs (docs/managed-agents-wire.md sections 8 and 9).

type deploymentState struct{}

func (s *Server) deploymentRoutes() []route { return nil }

// fireDueDeploymentsLocked fires every active deployment whose schedule has
// an occurrence at or before now that has not fired yet (see timers.go).
func (s *Server) fireDueDeploymentsLocked(now time.Time) {}
