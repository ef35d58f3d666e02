package messages

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
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
	Caller       *Caller         `json:"caller,omitempty"`
	CacheControl *CacheControl   `json:"cache_control,omitempty"`
}

// WebSearchToolResultBlock is the result of a web search (type
// "web_search_tool_result"). Content is WebSearchResults or a
// WebSearchToolResultError.
type WebSearchToolResultBlock struct {
	ToolUseID    string           `json:"tool_use_id"`
	Content      WebSearchContent `json:"content"`
	Caller       *Caller          `json:"caller,omitempty"`
	CacheControl *CacheControl    `json:"cache_control,omitempty"`
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
}

// WebSearchToolResultError is a failed search (type
// "web_search_tool_result_error"). ErrorCode is invalid_tool_input,
// unavailable, max_uses_exceeded, too_many_requests, query_too_long or
// request_too_large; unknown codes are kept.
type WebSearchToolResultError struct {
	ErrorCode string `json:"error_code"`
}

// UnknownWebSearchContent is content of a kind this SDK does not know.
type UnknownWebSearchContent struct{ union.Raw }

func (WebSearchResults) isWebSearchContent()         {}
func (WebSearchToolResultError) isWebSearchContent() {}
func (UnknownWebSearchContent) isWebSearchContent()  {}

func (r WebSearchResult) MarshalJSON() ([]byte, error) {
	type plain WebSearchResult
	return union.Marshal("web_search_result", plain(r))
}

func (e WebSearchToolResultError) MarshalJSON() ([]byte, error) {
	type plain WebSearchToolResultError
	return union.Marshal("web_search_tool_result_error", plain(e))
}

func (b *WebSearchToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain WebSearchToolResultBlock
	var w struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = WebSearchToolResultBlock(w.plain)
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || string(c) == "null":
	case c[0] == '[':
		var rs WebSearchResults
		if err := json.Unmarshal(c, &rs); err != nil {
			return err
		}
		b.Content = rs
	default:
		typ, err := union.Type(c)
		if err != nil {
			return err
		}
		if typ != "web_search_tool_result_error" {
			b.Content = UnknownWebSearchContent{union.NewRaw(typ, c)}
			return nil
		}
		var e WebSearchToolResultError
		if err := json.Unmarshal(c, &e); err != nil {
			return err
		}
		b.Content = e
	}
	return nil
}

// CodeExecutionToolResultBlock is the result of code execution (type
// "code_execution_tool_result"). Content is a CodeExecutionResult or a
// CodeExecutionToolResultError.
type CodeExecutionToolResultBlock struct {
	ToolUseID    string               `json:"tool_use_id"`
	Content      CodeExecutionContent `json:"content"`
	CacheControl *CacheControl        `json:"cache_control,omitempty"`
}

// BashCodeExecutionToolResultBlock is the result of a bash command of the
// newer code-execution tools (type "bash_code_execution_tool_result").
// Content is a BashCodeExecutionResult or a BashCodeExecutionToolResultError.
type BashCodeExecutionToolResultBlock struct {
	ToolUseID    string               `json:"tool_use_id"`
	Content      CodeExecutionContent `json:"content"`
	CacheControl *CacheControl        `json:"cache_control,omitempty"`
}

// CodeExecutionContent is CodeExecutionResult, CodeExecutionToolResultError,
// BashCodeExecutionResult, BashCodeExecutionToolResultError, or
// UnknownCodeExecutionContent.
type CodeExecutionContent interface{ isCodeExecutionContent() }

// CodeExecutionResult is a finished run (type "code_execution_result").
type CodeExecutionResult struct {
	Stdout     string                `json:"stdout"`
	Stderr     string                `json:"stderr"`
	ReturnCode int                   `json:"return_code"`
	Content    []CodeExecutionOutput `json:"content"`
}

// CodeExecutionOutput is a file a run wrote (type "code_execution_output"
// or "bash_code_execution_output", as its result).
type CodeExecutionOutput struct {
	FileID string `json:"file_id"`
}

// CodeExecutionToolResultError is a failed run (type
// "code_execution_tool_result_error"). ErrorCode is invalid_tool_input,
// unavailable, too_many_requests or execution_time_exceeded; unknown codes
// are kept.
type CodeExecutionToolResultError struct {
	ErrorCode string `json:"error_code"`
}

// BashCodeExecutionResult is a finished bash command (type
// "bash_code_execution_result").
type BashCodeExecutionResult struct {
	Stdout     string                `json:"stdout"`
	Stderr     string                `json:"stderr"`
	ReturnCode int                   `json:"return_code"`
	Content    []CodeExecutionOutput `json:"content"`
}

// BashCodeExecutionToolResultError is a failed bash command (type
// "bash_code_execution_tool_result_error").
type BashCodeExecutionToolResultError struct {
	ErrorCode string `json:"error_code"`
}

// UnknownCodeExecutionContent is content of a kind this SDK does not know.
type UnknownCodeExecutionContent struct{ union.Raw }

func (CodeExecutionResult) isCodeExecutionContent()              {}
func (CodeExecutionToolResultError) isCodeExecutionContent()     {}
func (BashCodeExecutionResult) isCodeExecutionContent()          {}
func (BashCodeExecutionToolResultError) isCodeExecutionContent() {}
func (UnknownCodeExecutionContent) isCodeExecutionContent()      {}

// codeOutputs marshals outputs with their type, which depends on the result.
func codeOutputs(typ string, outs []CodeExecutionOutput) []json.RawMessage {
	raws := make([]json.RawMessage, len(outs))
	for i, o := range outs {
		raws[i], _ = union.Marshal(typ, struct {
			FileID string `json:"file_id"`
		}{o.FileID})
	}
	return raws
}

type codeResultWire struct {
	Stdout     string            `json:"stdout"`
	Stderr     string            `json:"stderr"`
	ReturnCode int               `json:"return_code"`
	Content    []json.RawMessage `json:"content"`
}

func (r CodeExecutionResult) MarshalJSON() ([]byte, error) {
	return union.Marshal("code_execution_result",
		codeResultWire{r.Stdout, r.Stderr, r.ReturnCode, codeOutputs("code_execution_output", r.Content)})
}

func (r BashCodeExecutionResult) MarshalJSON() ([]byte, error) {
	return union.Marshal("bash_code_execution_result",
		codeResultWire{r.Stdout, r.Stderr, r.ReturnCode, codeOutputs("bash_code_execution_output", r.Content)})
}

func (e CodeExecutionToolResultError) MarshalJSON() ([]byte, error) {
	type plain CodeExecutionToolResultError
	return union.Marshal("code_execution_tool_result_error", plain(e))
}

func (e BashCodeExecutionToolResultError) MarshalJSON() ([]byte, error) {
	type plain BashCodeExecutionToolResultError
	return union.Marshal("bash_code_execution_tool_result_error", plain(e))
}

func decodeCodeContent(raw json.RawMessage) (CodeExecutionContent, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	typ, err := union.Type(raw)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "code_execution_result":
		var r CodeExecutionResult
		return r, json.Unmarshal(raw, &r)
	case "bash_code_execution_result":
		var r CodeExecutionResult
		err := json.Unmarshal(raw, &r)
		return BashCodeExecutionResult(r), err
	case "code_execution_tool_result_error":
		var e CodeExecutionToolResultError
		return e, json.Unmarshal(raw, &e)
	case "bash_code_execution_tool_result_error":
		var e BashCodeExecutionToolResultError
		return e, json.Unmarshal(raw, &e)
	}
	return UnknownCodeExecutionContent{union.NewRaw(typ, raw)}, nil
}

func (b *CodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain CodeExecutionToolResultBlock
	var w struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = CodeExecutionToolResultBlock(w.plain)
	var err error
	b.Content, err = decodeCodeContent(w.Content)
	return err
}

func (b *BashCodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	var c CodeExecutionToolResultBlock
	err := c.UnmarshalJSON(data)
	*b = BashCodeExecutionToolResultBlock(c)
	return err
}

// MCPToolUseBlock is a call of a tool of an MCP server that the platform
// made (type "mcp_tool_use", beta mcp-client-2025-11-20).
type MCPToolUseBlock struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	ServerName   string          `json:"server_name"`
	Input        json.RawMessage `json:"input"`
	CacheControl *CacheControl   `json:"cache_control,omitempty"`
}

// MCPToolResultBlock is the MCP server's answer (type "mcp_tool_result").
// Content is Text or Blocks of text blocks.
type MCPToolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	IsError      bool          `json:"is_error"`
	Content      Content       `json:"content"`
	CacheControl *CacheControl `json:"cache_control,omitempty"`
}

func (ServerToolUseBlock) isContentBlock()               {}
func (WebSearchToolResultBlock) isContentBlock()         {}
func (CodeExecutionToolResultBlock) isContentBlock()     {}
func (BashCodeExecutionToolResultBlock) isContentBlock() {}
func (MCPToolUseBlock) isContentBlock()                  {}
func (MCPToolResultBlock) isContentBlock()               {}

func (b ServerToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain ServerToolUseBlock
	b.Input = objectOrEmpty(b.Input)
	return union.Marshal("server_tool_use", plain(b))
}

func (b WebSearchToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain WebSearchToolResultBlock
	return union.Marshal("web_search_tool_result", plain(b))
}

func (b CodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain CodeExecutionToolResultBlock
	return union.Marshal("code_execution_tool_result", plain(b))
}

func (b BashCodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain BashCodeExecutionToolResultBlock
	return union.Marshal("bash_code_execution_tool_result", plain(b))
}

func (b MCPToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain MCPToolUseBlock
	b.Input = objectOrEmpty(b.Input)
	return union.Marshal("mcp_tool_use", plain(b))
}

func (b MCPToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain MCPToolResultBlock
	return union.Marshal("mcp_tool_result", plain(b))
}

func (b *MCPToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain MCPToolResultBlock
	var w struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = MCPToolResultBlock(w.plain)
	var err error
	b.Content, err = decodeContent(w.Content)
	return err
}
