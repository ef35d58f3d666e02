package messages

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The blocks of the platform's newer tools: what tool search and the
// browser give back inside a tool result, and the results of the web fetch,
// tool search and text editor server tools (docs/messages-wire.md 3.2).

// ToolReferenceBlock names a tool (type "tool_reference"): in the content
// of a ToolResultBlock it loads a deferred tool (one declared with
// defer_loading) the way tool search does, and the platform's own tool
// search results list them in a ToolSearchResult.
type ToolReferenceBlock struct {
	ToolName     string        `json:"tool_name"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BrowserStateBlock is the state of a browser the client drives (type
// "browser_state"), in the content of a ToolResultBlock: its open tabs and
// what changed since the previous state.
type BrowserStateBlock struct {
	Tabs         []BrowserTab         `json:"tabs"`
	StateChanges []BrowserStateChange `json:"state_changes,omitzero"`
	CacheControl *CacheControl        `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BrowserTab is an open tab of a BrowserStateBlock.
type BrowserTab struct {
	TabID  string `json:"tab_id"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Active bool   `json:"active,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BrowserStateChange is one change of a BrowserStateBlock. Type says which
// fields it has: BrowserTabOpened has TabID; the download kinds have
// DownloadID and URL, a completed one Path and SizeBytes, a failed one
// Error. One flat type keeps kinds newer than this SDK as they are.
type BrowserStateChange struct {
	Type       string `json:"type"`
	TabID      string `json:"tab_id,omitzero"`
	DownloadID string `json:"download_id,omitzero"`
	URL        string `json:"url,omitzero"`
	Path       string `json:"path,omitzero"`
	SizeBytes  *int64 `json:"size_bytes,omitzero"`
	Error      string `json:"error,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Kinds of BrowserStateChange.
const (
	BrowserTabOpened         = "tab_opened"
	BrowserDownloadStarted   = "download_started"
	BrowserDownloadCompleted = "download_completed"
	BrowserDownloadFailed    = "download_failed"
)

// WebFetchToolResultBlock is the result of a web fetch (type
// "web_fetch_tool_result"). Content is a WebFetchResult or a
// WebFetchToolResultError.
type WebFetchToolResultBlock struct {
	ToolUseID    string          `json:"tool_use_id"`
	Content      WebFetchContent `json:"content"`
	Caller       *Caller         `json:"caller,omitzero"`
	CacheControl *CacheControl   `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebFetchContent is WebFetchResult, WebFetchToolResultError, or
// UnknownWebFetchContent.
type WebFetchContent interface{ isWebFetchContent() }

// WebFetchResult is a fetched page (type "web_fetch_result"): its URL, when
// it was retrieved (an ISO 8601 time) and its content as a document.
type WebFetchResult struct {
	URL         string        `json:"url"`
	RetrievedAt string        `json:"retrieved_at"`
	Content     DocumentBlock `json:"content"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebFetchToolResultError is a failed fetch (type
// "web_fetch_tool_result_error"). ErrorCode is invalid_tool_input,
// url_too_long, url_not_allowed, url_not_in_prior_context,
// url_not_accessible, unsupported_content_type, too_many_requests,
// max_uses_exceeded, unavailable or content_too_large; unknown codes are
// kept.
type WebFetchToolResultError struct {
	ErrorCode string `json:"error_code"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownWebFetchContent is content of a kind this SDK does not know.
type UnknownWebFetchContent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownWebFetchContent) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (WebFetchResult) isWebFetchContent()          {}
func (WebFetchToolResultError) isWebFetchContent() {}
func (UnknownWebFetchContent) isWebFetchContent()  {}

// ToolSearchToolResultBlock is the result of a tool search (type
// "tool_search_tool_result"). Content is a ToolSearchResult or a
// ToolSearchToolResultError.
type ToolSearchToolResultBlock struct {
	ToolUseID    string            `json:"tool_use_id"`
	Content      ToolSearchContent `json:"content"`
	CacheControl *CacheControl     `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolSearchContent is ToolSearchResult, ToolSearchToolResultError, or
// UnknownToolSearchContent.
type ToolSearchContent interface{ isToolSearchContent() }

// ToolSearchResult lists the tools a search found (type
// "tool_search_tool_search_result"); the model can call them from then on.
type ToolSearchResult struct {
	ToolReferences []ToolReferenceBlock `json:"tool_references"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolSearchToolResultError is a failed search (type
// "tool_search_tool_result_error"). ErrorCode is invalid_tool_input,
// unavailable, too_many_requests or execution_time_exceeded; unknown codes
// are kept.
type ToolSearchToolResultError struct {
	ErrorCode    string `json:"error_code"`
	ErrorMessage string `json:"error_message"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownToolSearchContent is content of a kind this SDK does not know.
type UnknownToolSearchContent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownToolSearchContent) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (ToolSearchResult) isToolSearchContent()          {}
func (ToolSearchToolResultError) isToolSearchContent() {}
func (UnknownToolSearchContent) isToolSearchContent()  {}

// TextEditorCodeExecutionToolResultBlock is the result of a file command of
// the newer code-execution tools (type
// "text_editor_code_execution_tool_result"). Content is a
// TextEditorViewResult, TextEditorCreateResult, TextEditorStrReplaceResult
// or TextEditorCodeExecutionToolResultError.
type TextEditorCodeExecutionToolResultBlock struct {
	ToolUseID    string               `json:"tool_use_id"`
	Content      CodeExecutionContent `json:"content"`
	CacheControl *CacheControl        `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// TextEditorViewResult is a file as viewed (type
// "text_editor_code_execution_view_result"). FileType is text, image or
// pdf.
type TextEditorViewResult struct {
	Content    string `json:"content"`
	FileType   string `json:"file_type"`
	NumLines   int    `json:"num_lines"`
	StartLine  int    `json:"start_line"`
	TotalLines int    `json:"total_lines"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// TextEditorCreateResult is a file written (type
// "text_editor_code_execution_create_result"); IsFileUpdate is set when the
// file existed.
type TextEditorCreateResult struct {
	IsFileUpdate bool `json:"is_file_update"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// TextEditorStrReplaceResult is an edit made (type
// "text_editor_code_execution_str_replace_result"): the lines around it and
// where the old and the new text sit.
type TextEditorStrReplaceResult struct {
	Lines    []string `json:"lines"`
	OldStart int      `json:"old_start"`
	OldLines int      `json:"old_lines"`
	NewStart int      `json:"new_start"`
	NewLines int      `json:"new_lines"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// TextEditorCodeExecutionToolResultError is a failed file command (type
// "text_editor_code_execution_tool_result_error"). ErrorCode is
// invalid_tool_input, unavailable, too_many_requests,
// execution_time_exceeded or file_not_found; unknown codes are kept.
type TextEditorCodeExecutionToolResultError struct {
	ErrorCode    string `json:"error_code"`
	ErrorMessage string `json:"error_message"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// EncryptedCodeExecutionResult is a finished run whose output the platform
// keeps encrypted (type "encrypted_code_execution_result", in a
// CodeExecutionToolResultBlock): send it back unchanged for the model to
// read it.
type EncryptedCodeExecutionResult struct {
	EncryptedStdout string                `json:"encrypted_stdout"`
	Stderr          string                `json:"stderr"`
	ReturnCode      int                   `json:"return_code"`
	Content         []CodeExecutionOutput `json:"content"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (TextEditorViewResult) isCodeExecutionContent()                   {}
func (TextEditorCreateResult) isCodeExecutionContent()                 {}
func (TextEditorStrReplaceResult) isCodeExecutionContent()             {}
func (TextEditorCodeExecutionToolResultError) isCodeExecutionContent() {}
func (EncryptedCodeExecutionResult) isCodeExecutionContent()           {}

// ContainerUploadBlock is a file the platform put in the code-execution
// container (type "container_upload").
type ContainerUploadBlock struct {
	FileID       string        `json:"file_id"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (ToolReferenceBlock) isContentBlock()                     {}
func (BrowserStateBlock) isContentBlock()                      {}
func (WebFetchToolResultBlock) isContentBlock()                {}
func (ToolSearchToolResultBlock) isContentBlock()              {}
func (TextEditorCodeExecutionToolResultBlock) isContentBlock() {}
func (ContainerUploadBlock) isContentBlock()                   {}

// The plain copies of the types above, and their JSON.
type (
	plainToolReferenceBlock                     ToolReferenceBlock
	plainBrowserStateBlock                      BrowserStateBlock
	plainBrowserTab                             BrowserTab
	plainBrowserStateChange                     BrowserStateChange
	plainWebFetchToolResultBlock                WebFetchToolResultBlock
	plainWebFetchResult                         WebFetchResult
	plainWebFetchToolResultError                WebFetchToolResultError
	plainToolSearchToolResultBlock              ToolSearchToolResultBlock
	plainToolSearchResult                       ToolSearchResult
	plainToolSearchToolResultError              ToolSearchToolResultError
	plainTextEditorCodeExecutionToolResultBlock TextEditorCodeExecutionToolResultBlock
	plainTextEditorViewResult                   TextEditorViewResult
	plainTextEditorCreateResult                 TextEditorCreateResult
	plainTextEditorStrReplaceResult             TextEditorStrReplaceResult
	plainTextEditorError                        TextEditorCodeExecutionToolResultError
	plainEncryptedCodeExecutionResult           EncryptedCodeExecutionResult
	plainContainerUploadBlock                   ContainerUploadBlock
)

func (b ToolReferenceBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("tool_reference", plainToolReferenceBlock(b))
}
func (b *ToolReferenceBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainToolReferenceBlock)(b), &b.Extra)
}

func (b BrowserStateBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("browser_state", plainBrowserStateBlock(b))
}
func (b *BrowserStateBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainBrowserStateBlock)(b), &b.Extra)
}

func (t BrowserTab) MarshalJSON() ([]byte, error) { return wire.Marshal(plainBrowserTab(t)) }
func (t *BrowserTab) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainBrowserTab)(t), &t.Extra)
}

func (c BrowserStateChange) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainBrowserStateChange(c))
}
func (c *BrowserStateChange) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainBrowserStateChange)(c), &c.Extra)
}

func (b WebFetchToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_fetch_tool_result", plainWebFetchToolResultBlock(b))
}
func (b *WebFetchToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebFetchToolResultBlock)(b), &b.Extra)
}

func (r WebFetchResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_fetch_result", plainWebFetchResult(r))
}
func (r *WebFetchResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebFetchResult)(r), &r.Extra)
}

func (e WebFetchToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_fetch_tool_result_error", plainWebFetchToolResultError(e))
}
func (e *WebFetchToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebFetchToolResultError)(e), &e.Extra)
}

func (b ToolSearchToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("tool_search_tool_result", plainToolSearchToolResultBlock(b))
}
func (b *ToolSearchToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainToolSearchToolResultBlock)(b), &b.Extra)
}

func (r ToolSearchResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("tool_search_tool_search_result", plainToolSearchResult(r))
}
func (r *ToolSearchResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainToolSearchResult)(r), &r.Extra)
}

func (e ToolSearchToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("tool_search_tool_result_error", plainToolSearchToolResultError(e))
}
func (e *ToolSearchToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainToolSearchToolResultError)(e), &e.Extra)
}

func (b TextEditorCodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_editor_code_execution_tool_result", plainTextEditorCodeExecutionToolResultBlock(b))
}
func (b *TextEditorCodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextEditorCodeExecutionToolResultBlock)(b), &b.Extra)
}

func (r TextEditorViewResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_editor_code_execution_view_result", plainTextEditorViewResult(r))
}
func (r *TextEditorViewResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextEditorViewResult)(r), &r.Extra)
}

func (r TextEditorCreateResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_editor_code_execution_create_result", plainTextEditorCreateResult(r))
}
func (r *TextEditorCreateResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextEditorCreateResult)(r), &r.Extra)
}

func (r TextEditorStrReplaceResult) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_editor_code_execution_str_replace_result", plainTextEditorStrReplaceResult(r))
}
func (r *TextEditorStrReplaceResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextEditorStrReplaceResult)(r), &r.Extra)
}

func (e TextEditorCodeExecutionToolResultError) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_editor_code_execution_tool_result_error", plainTextEditorError(e))
}
func (e *TextEditorCodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextEditorError)(e), &e.Extra)
}

// encryptedResultWire is an encrypted run with its outputs typed
// code_execution_output, as codeResultWire does for a clear one.
type encryptedResultWire struct {
	EncryptedStdout string                     `json:"encrypted_stdout"`
	Stderr          string                     `json:"stderr"`
	ReturnCode      int                        `json:"return_code"`
	Content         []json.RawMessage          `json:"content"`
	Extra           map[string]json.RawMessage `json:",embed"`
}

func (r EncryptedCodeExecutionResult) MarshalJSON() ([]byte, error) {
	w := encryptedResultWire{EncryptedStdout: r.EncryptedStdout, Stderr: r.Stderr, ReturnCode: r.ReturnCode, Extra: r.Extra}
	if r.Content != nil {
		w.Content = make([]json.RawMessage, len(r.Content))
		for i, o := range r.Content {
			body, err := wire.Marshal(plainCodeExecutionOutput(o))
			if err == nil {
				w.Content[i], err = wire.WithType("code_execution_output", body)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return wire.MarshalVariant("encrypted_code_execution_result", w)
}
func (r *EncryptedCodeExecutionResult) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainEncryptedCodeExecutionResult)(r), &r.Extra)
}

func (b ContainerUploadBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("container_upload", plainContainerUploadBlock(b))
}
func (b *ContainerUploadBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContainerUploadBlock)(b), &b.Extra)
}

// variantBlockMore decodes the block kinds of this file; ok is false for
// any other kind.
func variantBlockMore(typ string, obj []byte) (b ContentBlock, ok bool, err error) {
	switch typ {
	case "tool_reference":
		b, err = decodeAs[ToolReferenceBlock](obj)
	case "browser_state":
		b, err = decodeAs[BrowserStateBlock](obj)
	case "web_fetch_tool_result":
		b, err = decodeAs[WebFetchToolResultBlock](obj)
	case "tool_search_tool_result":
		b, err = decodeAs[ToolSearchToolResultBlock](obj)
	case "text_editor_code_execution_tool_result":
		b, err = decodeAs[TextEditorCodeExecutionToolResultBlock](obj)
	case "container_upload":
		b, err = decodeAs[ContainerUploadBlock](obj)
	default:
		return nil, false, nil
	}
	return b, true, err
}

// variantCodeContentMore decodes the code-execution content kinds of this
// file; ok is false for any other kind.
func variantCodeContentMore(typ string, obj []byte) (c CodeExecutionContent, ok bool, err error) {
	switch typ {
	case "encrypted_code_execution_result":
		c, err = decodeAs[EncryptedCodeExecutionResult](obj)
	case "text_editor_code_execution_view_result":
		c, err = decodeAs[TextEditorViewResult](obj)
	case "text_editor_code_execution_create_result":
		c, err = decodeAs[TextEditorCreateResult](obj)
	case "text_editor_code_execution_str_replace_result":
		c, err = decodeAs[TextEditorStrReplaceResult](obj)
	case "text_editor_code_execution_tool_result_error":
		c, err = decodeAs[TextEditorCodeExecutionToolResultError](obj)
	default:
		return nil, false, nil
	}
	return c, true, err
}

// decodeWebFetchContent is the decoder of WebFetchContent.
func decodeWebFetchContent(typ string, obj []byte) (WebFetchContent, error) {
	var v WebFetchContent
	var err error
	switch typ {
	case "web_fetch_result":
		v, err = decodeAs[WebFetchResult](obj)
	case "web_fetch_tool_result_error":
		v, err = decodeAs[WebFetchToolResultError](obj)
	default:
		v = UnknownWebFetchContent{Type: typ, JSON: unknownJSON(obj)}
	}
	return v, nested(err)
}

// decodeToolSearchContent is the decoder of ToolSearchContent.
func decodeToolSearchContent(typ string, obj []byte) (ToolSearchContent, error) {
	var v ToolSearchContent
	var err error
	switch typ {
	case "tool_search_tool_search_result":
		v, err = decodeAs[ToolSearchResult](obj)
	case "tool_search_tool_result_error":
		v, err = decodeAs[ToolSearchToolResultError](obj)
	default:
		v = UnknownToolSearchContent{Type: typ, JSON: unknownJSON(obj)}
	}
	return v, nested(err)
}

// newerResult is the call a result block of this file answers and, when
// the result reports a failure, its error code (tool_error when it has
// none), for the tool spans of tracing.go.
func newerResult(b ContentBlock) (id, code string) {
	switch b := b.(type) {
	case WebFetchToolResultBlock:
		switch c := b.Content.(type) {
		case WebFetchToolResultError:
			code = orToolError(c.ErrorCode)
		case UnknownWebFetchContent:
			code = unknownErrorCode(c.JSON)
		}
		return b.ToolUseID, code
	case ToolSearchToolResultBlock:
		switch c := b.Content.(type) {
		case ToolSearchToolResultError:
			code = orToolError(c.ErrorCode)
		case UnknownToolSearchContent:
			code = unknownErrorCode(c.JSON)
		}
		return b.ToolUseID, code
	case TextEditorCodeExecutionToolResultBlock:
		switch c := b.Content.(type) {
		case TextEditorCodeExecutionToolResultError:
			code = orToolError(c.ErrorCode)
		case UnknownCodeExecutionContent:
			code = unknownErrorCode(c.JSON)
		}
		return b.ToolUseID, code
	}
	return "", ""
}

// unknownErrorCode is the error_code of content of a kind this SDK does
// not know, or "" when it has none.
func unknownErrorCode(obj json.RawMessage) string {
	var w struct {
		ErrorCode string `json:"error_code"`
	}
	_ = json.Unmarshal(obj, &w)
	return w.ErrorCode
}
