// Package hooks carries what one resource package lends another that
// imports it without it becoming public API: validation rules, so that a
// request is checked before it is sent, and union decoders.
//
// A session names an agent and may carry an agent's tool lists; a
// deployment names an agent and carries a session's initial events and
// resources. The rules for those values belong to the package that defines
// them (agents, sessions), which keeps them unexported. This package sits
// below both, so it cannot name their types: each hook takes the owner's
// value as any, and the owner's hook asserts it back to its own type. Each
// borrower wraps the hook in a typed function of its own, so that the rest
// of its code calls a typed rule.
//
// Each hook is set once, by the owning package's init; Go initializes an
// imported package first, so a borrower always finds the hooks of the
// packages it imports. A nil hook is a bug of this module, caught by this
// package's test.
package hooks

import (
	"fmt"

	json "github.com/go-json-experiment/json"
)

var (
	// AgentRef checks an agents.AgentRef, reporting problems at field.
	// Set by agents; read by sessions and deployments.
	AgentRef func(field string, ref any) error

	// AgentToolLists checks the tools ([]agents.Tool), MCP servers
	// ([]agents.MCPServer) and skills ([]agents.Skill) of a request,
	// reporting problems under prefix; matched says whether toolsets and
	// servers must name each other (both lists are sent). Set by agents;
	// read by sessions.
	AgentToolLists func(prefix string, tools, servers, skills any, matched bool) error

	// SessionEvents checks a session's initial events
	// ([]sessions.EventParam) at field. Set by sessions; read by
	// deployments.
	SessionEvents func(field string, events any) error

	// SessionResources checks a session's resources
	// ([]sessions.ResourceParam) at field. Set by sessions; read by
	// deployments.
	SessionResources func(field string, resources any) error
)

// AgentUnions decodes the agents package's unions (tools, skills,
// execution identities, the multi-agent configuration and its parts), for
// a package whose own wire types hold them: join it into the options of
// its decoder with wire.Join. Set by agents; for sessions, whose agent
// snapshots hold these unions.
var AgentUnions *json.Unmarshalers

// As returns v as a T, for an owner's hook: nil (a nil interface
// passed by the borrower) gives T's zero value. A value of another type
// panics: the borrower passed the wrong thing, a bug of this module, never
// of a caller's input.
func As[T any](hook string, v any) T {
	if v == nil {
		var zero T
		return zero
	}
	t, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("hooks: %s given a %T, want a %s", hook, v, fmt.Sprintf("%T", (*T)(nil))[1:]))
	}
	return t
}
