package mcptool

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentplatform/agentplatform-go/tool"
)

// imageTypes are the media types the API accepts for an image in a tool's
// result; an image of another type would make the API refuse the request.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// result maps an MCP tool result to a tool result: text as text, images
// as images, and what the API cannot carry in a tool result (audio,
// resource links, embedded resources, images of other types) as text that
// describes it. Structured content becomes JSON text when the result has
// no text of its own (a server that sends both usually repeats it there).
func result(res *mcp.CallToolResult) tool.Result {
	out := tool.Result{IsError: res.IsError}
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			hasText = true
			out.Content = append(out.Content, tool.TextBlock{Text: c.Text})
		case *mcp.ImageContent:
			if imageTypes[c.MIMEType] {
				out.Content = append(out.Content, tool.ImageBlock{MediaType: c.MIMEType, Data: c.Data})
			} else {
				out.Content = append(out.Content, tool.TextBlock{Text: fmt.Sprintf("[image: %s, %d bytes, not shown: not a type the model can read]", orUnknown(c.MIMEType), len(c.Data))})
			}
		case *mcp.AudioContent:
			out.Content = append(out.Content, tool.TextBlock{Text: fmt.Sprintf("[audio: %s, %d bytes, not included]", orUnknown(c.MIMEType), len(c.Data))})
		case *mcp.ResourceLink:
			out.Content = append(out.Content, tool.TextBlock{Text: describeLink(c)})
		case *mcp.EmbeddedResource:
			out.Content = append(out.Content, tool.TextBlock{Text: describeResource(c.Resource)})
		default:
			out.Content = append(out.Content, tool.TextBlock{Text: fmt.Sprintf("[content of type %T, not included]", c)})
		}
	}
	if !hasText && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Content = append([]tool.Block{tool.TextBlock{Text: string(b)}}, out.Content...)
		}
	}
	return out
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

func describeLink(l *mcp.ResourceLink) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[resource link: %s", l.URI)
	if l.Name != "" {
		fmt.Fprintf(&b, ", name %q", l.Name)
	}
	if l.Title != "" {
		fmt.Fprintf(&b, ", title %q", l.Title)
	}
	if l.MIMEType != "" {
		fmt.Fprintf(&b, ", %s", l.MIMEType)
	}
	if l.Size != nil {
		fmt.Fprintf(&b, ", %d bytes", *l.Size)
	}
	if l.Description != "" {
		fmt.Fprintf(&b, ": %s", l.Description)
	}
	b.WriteString("]")
	return b.String()
}

// describeResource keeps an embedded text resource's text, after a line
// naming it; a binary one is only described.
func describeResource(r *mcp.ResourceContents) string {
	if r == nil {
		return "[embedded resource: empty]"
	}
	head := fmt.Sprintf("[embedded resource: %s", r.URI)
	if r.MIMEType != "" {
		head += ", " + r.MIMEType
	}
	if r.Blob != nil {
		return fmt.Sprintf("%s, %d bytes of binary data, not included]", head, len(r.Blob))
	}
	return head + "]\n" + r.Text
}
