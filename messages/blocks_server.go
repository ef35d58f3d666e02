package messages

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// ServerToolUseBlock is a call of a server tool that the platform ran
// itself (type "server_tool_use"): Name is web_search, web_fetch,
// code_execution, bash_code_execution, text_editor_code_execution,
// tool_search_tool_regex or tool_search_tool_bm25. Its result follows as a
// result block with the same id.
type ServerToolUseBlock struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	Caller       *Caller         `json:"caller,omitzero"`
	CacheControl *CacheControl   `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebSearchToolResultBlock is the result of a web search (type
// "web_search_tool_result"). Content is WebSearchResults or a
// WebSearchToolResultError.
type WebSearchToolResultBlock struct {
	ToolUseID    string           `json:"tool_use_id"`
	Content      WebSearchContent `json:"content"`
	Caller       *Caller          `json:"caller,omitzero"`
	CacheControl *CacheControl    `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebSearchContent is WebSearchResults, WebSearchToolResultError, or
// UnknownWebSearchContent.
type WebSearchContent interface{ isWebSearchContent() }

// WebSearchResults are the results of a search.
type WebSearchResults []WebSearchResult

// WebSearchResult is one result (type "web_search_result"). PageAge is nil
// when null.
type WebSearchResult struct {
	URL              string  `json:"url"`
	Title            string  `json:"title"`
	EncryptedContent string  `json:"encrypted_content"`
	PageAge          *string `json:"page_age"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebSearchToolResultError is a failed search (type
// "web_search_tool_result_error"). ErrorCode is invalid_tool_input,
// unavailable, max_uses_exceeded, too_many_requests, query_too_long or
// request_too_large; unknown codes are kept.
type WebSearchToolResultError struct {
	ErrorCode string `json:"error_code"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownWebSearchContent is content of a kind this SDK does not know.
type UnknownWebSearchContent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownWebSearchContent) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (WebSearchResults) isWebSearchContent()         {}
func (WebSearchToolResultError) isWebSearchContent() {}
func (UnknownWebSearchContent) isWebSearchContent()  {}

// CodeExecutionToolResultBlock is the result of code execution (type
// "code_execution_tool_result"). Content is a CodeExecutionResult, an
// EncryptedCodeExecutionResult or a CodeExecutionToolResultError.
type CodeExecutionToolResultBlock struct {
	ToolUseID    string               `json:"tool_use_id"`
	Content      CodeExecutionContent `json:"content"`
	CacheControl *CacheControl        `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BashCodeExecutionToolResultBlock is the result of a bash command of the
// newer code-execution tools (type "bash_code_execution_tool_result").
// Content is a BashCodeExecutionResult or a BashCodeExecutionToolResultError.
type BashCodeExecutionToolResultBlock struct {
	ToolUseID    string               `json:"tool_use_id"`
	Content      CodeExecutionContent `json:"content"`
	CacheControl *CacheControl        `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CodeExecutionContent is CodeExecutionResult, EncryptedCodeExecutionResult,
// CodeExecutionToolResultError, BashCodeExecutionResult,
// BashCodeExecutionToolResultError, one of the TextEditor… results, or
// UnknownCodeExecutionContent.
type CodeExecutionContent interface{ isCodeExecutionContent() }

// CodeExecutionResult is a finished run (type "code_execution_result").
type CodeExecutionResult struct {
	Stdout     string                `json:"stdout"`
	Stderr     string                `json:"stderr"`
	ReturnCode int                   `json:"return_code"`
	Content    []CodeExecutionOutput `json:"content"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CodeExecutionOutput is a file a run wrote (type "code_execution_output"
// or "bash_code_execution_output", as its result).
type CodeExecutionOutput struct {
	FileID string `json:"file_id"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CodeExecutionToolResultError is a failed run (type
// "code_execution_tool_result_error"). ErrorCode is invalid_tool_input,
// unavailable, too_many_requests or execution_time_exceeded; unknown codes
// are kept.
type CodeExecutionToolResultError struct {
	ErrorCode string `json:"error_code"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BashCodeExecutionResult is a finished bash command (type
// "bash_code_execution_result").
type BashCodeExecutionResult struct {
	Stdout     string                `json:"stdout"`
	Stderr     string                `json:"stderr"`
	ReturnCode int                   `json:"return_code"`
	Content    []CodeExecutionOutput `json:"content"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BashCodeExecutionToolResultError is a failed bash command (type
// "bash_code_execution_tool_result_error").
type BashCodeExecutionToolResultError struct {
	ErrorCode string `json:"error_code"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownCodeExecutionContent is content of a kind this SDK does not know.
type UnknownCodeExecutionContent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownCodeExecutionContent) MarshalJSON() ([]byte, error) {
	return wire.Unknown(u.Type, u.JSON)
}

func (CodeExecutionResult) isCodeExecutionContent()              {}
func (CodeExecutionToolResultError) isCodeExecutionContent()     {}
func (BashCodeExecutionResult) isCodeExecutionContent()          {}
func (BashCodeExecutionToolResultError) isCodeExecutionContent() {}
func (UnknownCodeExecutionContent) isCodeExecutionContent()      {}

// MCPToolUseBlock is a call of a tool of an MCP server that the platform
// made (type "mcp_tool_use", beta mcp-client-2025-11-20).
type MCPToolUseBlock struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	ServerName   string          `json:"server_name"`
	Input        json.RawMessage `json:"input"`
	CacheControl *CacheControl   `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MCPToolResultBlock is the MCP server's answer (type "mcp_tool_result").
// Content is Text or Blocks of text blocks.
type MCPToolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	IsError      bool          `json:"is_error"`
	Content      Content       `json:"content"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (ServerToolUseBlock) isContentBlock()               {}
func (WebSearchToolResultBlock) isContentBlock()         {}
func (CodeExecutionToolResultBlock) isContentBlock()     {}
func (BashCodeExecutionToolResultBlock) isContentBlock() {}
func (MCPToolUseBlock) isContentBlock()                  {}
func (MCPToolResultBlock) isContentBlock()               {}

// The plain copies of the types above, and their JSON.
type (
	plainServerToolUseBlock               ServerToolUseBlock
	plainWebSearchToolResultBlock         WebSearchToolResultBlock
	plainWebSearchResult                  WebSearchResult
	plainWebSearchToolResultError         WebSearchToolResultError
	plainCodeExecutionToolResultBlock     CodeExecutionToolResultBlock
	plainBashCodeExecutionToolResultBlock BashCodeExecutionToolResultBlock
	plainCodeExecutionResult              CodeExecutionResult
	plainCodeExecutionOutput              CodeExecutionOutput
	plainCodeExecutionToolResultError     CodeExecutionToolResultError
	plainBashCodeExecutionResult          BashCodeExecutionResult
	plainBashCodeExecutionToolResultError BashCodeExecutionToolResultError
	plainMCPToolUseBlock                  MCPToolUseBlock
	plainMCPToolResultBlock               MCPToolResultBlock
)

func (b ServerToolUseBlock) MarshalJSON() ([]byte, error) {
	b.Input = objectOrEmpty(b.Input)
	return wire.MarshalVariant("server_tool_use", plainServerToolUseBlock(b))
}
func (b *ServerToolUseBlock) UnmarshalJSON(data []byte) error {
	err := unmarshalVariant(data, (*plainServerToolUseBlock)(b), &b.Extra)
	b.Input = decodedInput(b.Input)
	return err
}

func (b WebSearchToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_search_tool_result", plainWebSearchToolResultBlock(b))
}
func (b *WebSearchToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebSearchToolResultBlock)(b), &b.Extra)
}

func (r WebSearchResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_search_result", plainWebSearchResult(r))
}
func (r *WebSearchResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebSearchResult)(r), &r.Extra)
}

func (e WebSearchToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_search_tool_result_error", plainWebSearchToolResultError(e))
}
func (e *WebSearchToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebSearchToolResultError)(e), &e.Extra)
}

func (b CodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("code_execution_tool_result", plainCodeExecutionToolResultBlock(b))
}
func (b *CodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCodeExecutionToolResultBlock)(b), &b.Extra)
}

func (b BashCodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("bash_code_execution_tool_result", plainBashCodeExecutionToolResultBlock(b))
}
func (b *BashCodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainBashCodeExecutionToolResultBlock)(b), &b.Extra)
}

// codeResultWire is a run's result with its outputs typed as the result
// says (code_execution_output or bash_code_execution_output): an output
// does not write its own type.
type codeResultWire struct {
	Stdout     string                     `json:"stdout"`
	Stderr     string                     `json:"stderr"`
	ReturnCode int                        `json:"return_code"`
	Content    []json.RawMessage          `json:"content"`
	Extra      map[string]json.RawMessage `json:",embed"`
}

func marshalCodeResult(typ, outputType string, r plainCodeExecutionResult) ([]byte, error) {
	w := codeResultWire{Stdout: r.Stdout, Stderr: r.Stderr, ReturnCode: r.ReturnCode, Extra: r.Extra}
	if r.Content != nil {
		w.Content = make([]json.RawMessage, len(r.Content))
		for i, o := range r.Content {
			body, err := wire.Marshal(plainCodeExecutionOutput(o))
			if err == nil {
				w.Content[i], err = wire.WithType(outputType, body)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return wire.MarshalVariant(typ, w)
}

func (r CodeExecutionResult) MarshalJSON() ([]byte, error) {
	return marshalCodeResult("code_execution_result", "code_execution_output", plainCodeExecutionResult(r))
}
func (r *CodeExecutionResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCodeExecutionResult)(r), &r.Extra)
}

func (r BashCodeExecutionResult) MarshalJSON() ([]byte, error) {
	return marshalCodeResult("bash_code_execution_result", "bash_code_execution_output", plainCodeExecutionResult(r))
}
func (r *BashCodeExecutionResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainBashCodeExecutionResult)(r), &r.Extra)
}

// MarshalJSON writes the output without its type, which the result that
// holds it writes.
func (o CodeExecutionOutput) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainCodeExecutionOutput(o))
}
func (o *CodeExecutionOutput) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCodeExecutionOutput)(o), &o.Extra)
}

func (e CodeExecutionToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("code_execution_tool_result_error", plainCodeExecutionToolResultError(e))
}
func (e *CodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCodeExecutionToolResultError)(e), &e.Extra)
}

func (e BashCodeExecutionToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("bash_code_execution_tool_result_error", plainBashCodeExecutionToolResultError(e))
}
func (e *BashCodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainBashCodeExecutionToolResultError)(e), &e.Extra)
}

func (b MCPToolUseBlock) MarshalJSON() ([]byte, error) {
	b.Input = objectOrEmpty(b.Input)
	return wire.MarshalVariant("mcp_tool_use", plainMCPToolUseBlock(b))
}
func (b *MCPToolUseBlock) UnmarshalJSON(data []byte) error {
	err := unmarshalVariant(data, (*plainMCPToolUseBlock)(b), &b.Extra)
	b.Input = decodedInput(b.Input)
	return err
}

func (b MCPToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("mcp_tool_result", plainMCPToolResultBlock(b))
}
func (b *MCPToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainMCPToolResultBlock)(b), &b.Extra)
}

// decodeCodeContent is the decoder of CodeExecutionContent.
func decodeCodeContent(typ string, obj []byte) (CodeExecutionContent, error) {
	v, err := variantCodeContent(typ, obj)
	return v, nested(err)
}

func variantCodeContent(typ string, obj []byte) (CodeExecutionContent, error) {
	switch typ {
	case "code_execution_result":
		return decodeAs[CodeExecutionResult](obj)
	case "bash_code_execution_result":
		return decodeAs[BashCodeExecutionResult](obj)
	case "code_execution_tool_result_error":
		return decodeAs[CodeExecutionToolResultError](obj)
	case "bash_code_execution_tool_result_error":
		return decodeAs[BashCodeExecutionToolResultError](obj)
	}
	if c, ok, err := variantCodeContentMore(typ, obj); ok {
		return c, err
	}
	return UnknownCodeExecutionContent{Type: typ, JSON: unknownJSON(obj)}, nil
}
