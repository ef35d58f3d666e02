// Package mcptool turns the tools of an MCP (Model Context Protocol)
// server into tool.Tool values, so that one definition serves both the
// Messages tool loop (messages.Service.RunTools) and a session's tool
// runner (toolrunner), as any tool of your own would.
//
// Connect to the server with the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk/mcp), over any transport it
// supports, and pass the session to Tools:
//
//	cs, err := mcp.NewClient(&mcp.Implementation{Name: "my-app", Version: "v1"}, nil).
//		Connect(ctx, &mcp.CommandTransport{Command: exec.Command("my-mcp-server")}, nil)
//	if err != nil { … }
//	defer cs.Close()
//	tools, err := mcptool.Tools(ctx, cs, mcptool.WithPrefix("files"))
//	if err != nil { … }
//	res, err := client.Messages.RunTools(ctx, params, tools, messages.ToolLoop{})
//
// Each tool calls the server through the session when the model uses it,
// with the call's context: cancelling it cancels the MCP call. The
// session must stay open as long as the tools are used.
//
// # Names and schemas
//
// The API accepts a tool name of 1 to 128 letters, digits, underscores and
// hyphens; MCP allows more. Every other character becomes an underscore
// ("files.read" is called files_read), and WithPrefix puts prefix__ before
// each name, to keep apart the tools of several servers. The server is
// still called with the tool's own name. A name that is still too long,
// or two names that map to one, make Tools fail with an error naming each
// such tool (*ToolError): no tool is left out without your knowing.
// WithFilter leaves tools out on purpose.
//
// The input schema is the server's, as it sent it; a tool without one
// takes any object. A tool without a description is described by its
// title, or else by its name, since the API needs a description.
//
// # Results
//
// An MCP result becomes a tool.Result:
//
//   - text content is text, in order;
//   - an image is an image (the bytes the server sent base64-encoded, and
//     their media type), when it is PNG, JPEG, GIF or WebP; an image of
//     another type is a line of text describing it, since the API would
//     refuse it;
//   - audio, resource links and embedded resources, which a tool result
//     of the API cannot carry, are lines of text describing them (an
//     embedded text resource keeps its text, after a line naming it);
//   - structured content is JSON text, first, when the result has no text
//     (a server that sends both repeats the structured content as text);
//   - isError makes it an error result, which the model reads.
//
// A failure of the call itself (an unknown tool, a closed connection, the
// context ending) is also an error result, whose text is the error's,
// never a panic or a stopped loop: the model reads it and can go on.
package mcptool
