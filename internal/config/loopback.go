package config

import (
	"net/netip"
	"strings"
)

// IsLoopback reports whether host names this machine, where plain HTTP
// cannot expose a credential to the network.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.IsLoopback()
}
