// Package spans holds what the reference server's API spans share across
// endpoint families (docs/tracing.md): the SERVER span of a request and how
// a span ends, tool span attributes, and content-mode attributes. The
// server in package refserver starts and ends request spans; families add
// their own spans under them.
package spans
