package platformtest

// EnvironmentKey mints a new key for a self-hosted environment, as the
// platform's console issues them to the machines that run the
// environment's sandbox tools: sent as `Authorization: Bearer <key>`, it
// authorizes that environment's work queue and its sessions, and nothing
// else (docs/environment-work-wire.md). Every call mints another valid key;
// archiving or deleting the environment revokes them all. The environment
// must exist, be self-hosted and not be archived.
func (s *Server) EnvironmentKey(environmentID string) (string, error) {
	return s.rs.EnvironmentKey(environmentID)
}
