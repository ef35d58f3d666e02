package mcptool

import (
	"fmt"
	"strings"
)

// maxNameLen is the API's limit on a tool's name.
const maxNameLen = 128

// apiName maps an MCP tool's name, with the prefix, to a name the API
// accepts: 1 to 128 letters, digits, underscores and hyphens. MCP allows
// more (dots, slashes, spaces, any length), so each other character
// becomes an underscore. A name that is empty or still too long cannot be
// mapped: cutting it short could make two tools one.
func apiName(prefix, name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("name: must not be empty")
	}
	full := name
	if prefix != "" {
		full = prefix + "__" + name
	}
	mapped := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, full)
	if n := len(mapped); n > maxNameLen {
		return "", fmt.Errorf("name %q: must be at most %d letters, digits, underscores or hyphens with the prefix, has %d", mapped, maxNameLen, n)
	}
	return mapped, nil
}
