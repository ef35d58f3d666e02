package auth

// WaitIdle blocks until no exchange of c runs: tests use it to observe the
// outcome of a background refresh deterministically.
func WaitIdle(c any) {
	switch c := c.(type) {
	case *FederationCredentials:
		c.f.cache.wait()
	case *DeviceAttestationCredentials:
		c.d.cache.wait()
	}
}
