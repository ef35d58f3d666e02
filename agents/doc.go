// Package agents manages agents (SPEC 2.3, 4.8): versioned agent definitions: model, system prompt, tools, skills, MCP servers and multi-agent configuration.
//
// Every call sends the vendor-beta value these endpoints require (Beta).
package agents
