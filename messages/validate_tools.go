package messages

// Local checks of the newer tool types and block fields, as the reference
// server makes them (docs/messages-wire.md 2.3.2, 3.2).

// serverToolName is the fixed name of a newer server tool.
func serverToolName(t Tool) string {
	switch t := t.(type) {
	case WebFetchTool:
		return "web_fetch"
	case ToolSearchTool:
		return t.Type.ToolName()
	}
	return ""
}

// validateNewerTool checks a WebFetchTool or a ToolSearchTool at path
// (tools.<i>).
func validateNewerTool(path string, t Tool) error {
	w, ok := t.(WebFetchTool)
	if !ok {
		return nil
	}
	typ := w.Type
	if typ == "" {
		typ = WebFetch20250910
	}
	p := path + "." + string(typ)
	switch {
	case w.MaxUses < 0:
		return invalid(p+".max_uses", atLeast("1"))
	case w.MaxContentTokens < 0:
		return invalid(p+".max_content_tokens", atLeast("1"))
	case w.AllowedDomains != nil && w.BlockedDomains != nil:
		return invalid(p, "allowed_domains and blocked_domains cannot both be set")
	}
	return checkResponseInclusion(p, w.ResponseInclusion)
}

// checkResponseInclusion refuses a response_inclusion other than full or
// excluded.
func checkResponseInclusion(path string, r ResponseInclusion) error {
	switch r {
	case "", ResponseInclusionFull, ResponseInclusionExcluded:
		return nil
	}
	return invalid(path+".response_inclusion", "Input should be 'full' or 'excluded'")
}

// validateImageTransformations refuses an oversized_image other than
// downsize or error.
func validateImageTransformations(path string, t *ImageTransformations) error {
	if t == nil {
		return nil
	}
	switch t.OversizedImage {
	case "", OversizedImageDownsize, OversizedImageError:
		return nil
	}
	return invalid(path+".image.transformations.oversized_image", "Input should be 'downsize' or 'error'")
}
