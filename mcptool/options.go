package mcptool

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Option configures Tools and Tool.
type Option func(*config)

type config struct {
	prefix string
	filter func(*mcp.Tool) bool
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithPrefix names each tool prefix__name, e.g. "github__create_issue",
// so that the tools of several servers (or a server and your own tools)
// cannot clash. The MCP server is still called with the tool's own name.
func WithPrefix(prefix string) Option {
	return func(c *config) { c.prefix = prefix }
}

// WithFilter keeps only the tools for which keep returns true; Tools does
// not look at the others at all, so a filter also leaves out a tool whose
// name or schema could not be used. Tool ignores it.
func WithFilter(keep func(*mcp.Tool) bool) Option {
	return func(c *config) { c.filter = keep }
}
