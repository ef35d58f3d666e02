package param

import (
	"fmt"
	"log/slog"
)

// Secret is a credential carried in a request body, such as a repository's
// authorization token or an MCP server's token. It is a string for JSON
// only: every fmt verb (%v, %+v, %#v, %s, %q, …) and log/slog show
// "[redacted]", so params can be printed or logged without leaking it.
// Convert it with string(s) when the raw value is really wanted.
type Secret string

const redacted = "[redacted]"

// String returns "[redacted]", or "" for an empty secret, so that an unset
// token is still visible as unset.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return fmt.Sprintf("param.Secret(%q)", s.String()) }

// Format applies to every verb: fmt calls it before String or GoString.
func (s Secret) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		_, _ = f.Write([]byte(s.GoString()))
	case verb == 'q':
		_, _ = fmt.Fprintf(f, "%q", s.String())
	default:
		_, _ = f.Write([]byte(s.String()))
	}
}

// LogValue keeps log/slog from recording the value.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }
