package messages

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Content is the content of a message, a tool result or an MCP tool
// result: Text (the string shorthand) or Blocks.
type Content interface{ isContent() }

// Text is content given as a plain string, the shorthand for one text block
// (docs/messages-wire.md 2.2). It is also a System prompt.
type Text string

// Blocks is content given as a list of blocks.
type Blocks []ContentBlock

func (Text) isContent()   {}
func (Blocks) isContent() {}

// UnmarshalJSON decodes an array of blocks; a block of a kind this SDK does
// not know becomes an UnknownBlock.
func (b *Blocks) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*[]ContentBlock)(b), unions)
}

// System is the system prompt: Text, or SystemBlocks when the prompt needs
// several blocks or cache breakpoints.
type System interface{ isSystem() }

// SystemBlocks is a system prompt of text blocks.
type SystemBlocks []TextBlock

func (Text) isSystem()         {}
func (SystemBlocks) isSystem() {}

// Source is where an image or a document comes from: Base64Source,
// PlainTextSource, ContentSource, URLSource, FileSource, or UnknownSource.
type Source interface{ isSource() }

// Base64Source is inline data (type "base64"): an image (MediaType
// image/jpeg, image/png, image/gif or image/webp) or a PDF
// (application/pdf). Data is the base64 text.
type Base64Source struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PlainTextSource is an inline plain-text document (type "text"); the media
// type is always text/plain.
type PlainTextSource struct {
	Data string `json:"data"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentSource is a document made of content (type "content"): Text, or
// Blocks of text and image blocks.
type ContentSource struct {
	Content Content `json:"content"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// URLSource is fetched from an https URL (type "url"): an image or a PDF.
type URLSource struct {
	URL string `json:"url"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FileSource is a file uploaded with the Files API (type "file"; needs the
// files-api-2025-04-14 beta, which the SDK then sends).
type FileSource struct {
	FileID string `json:"file_id"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownSource is a source kind this SDK does not know, as received.
type UnknownSource struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownSource) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (Base64Source) isSource()    {}
func (PlainTextSource) isSource() {}
func (ContentSource) isSource()   {}
func (URLSource) isSource()       {}
func (FileSource) isSource()      {}
func (UnknownSource) isSource()   {}

// Citation points at the source of a piece of text: CharLocation,
// PageLocation, ContentBlockLocation, WebSearchResultLocation,
// SearchResultLocation, or UnknownCitation. Nullable strings are nil when
// null.
type Citation interface{ isCitation() }

// CharLocation cites characters of a plain-text document (type
// "char_location"); EndCharIndex is exclusive.
type CharLocation struct {
	CitedText      string  `json:"cited_text"`
	DocumentIndex  int     `json:"document_index"`
	DocumentTitle  *string `json:"document_title"`
	StartCharIndex int     `json:"start_char_index"`
	EndCharIndex   int     `json:"end_char_index"`
	FileID         *string `json:"file_id"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PageLocation cites pages of a PDF (type "page_location"); page numbers
// start at 1 and EndPageNumber is exclusive.
type PageLocation struct {
	CitedText       string  `json:"cited_text"`
	DocumentIndex   int     `json:"document_index"`
	DocumentTitle   *string `json:"document_title"`
	StartPageNumber int     `json:"start_page_number"`
	EndPageNumber   int     `json:"end_page_number"`
	FileID          *string `json:"file_id"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentBlockLocation cites blocks of a content document (type
// "content_block_location"); EndBlockIndex is exclusive.
type ContentBlockLocation struct {
	CitedText       string  `json:"cited_text"`
	DocumentIndex   int     `json:"document_index"`
	DocumentTitle   *string `json:"document_title"`
	StartBlockIndex int     `json:"start_block_index"`
	EndBlockIndex   int     `json:"end_block_index"`
	FileID          *string `json:"file_id"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WebSearchResultLocation cites a web search result (type
// "web_search_result_location").
type WebSearchResultLocation struct {
	CitedText      string  `json:"cited_text"`
	URL            string  `json:"url"`
	Title          *string `json:"title"`
	EncryptedIndex string  `json:"encrypted_index"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SearchResultLocation cites a client-supplied search result (type
// "search_result_location").
type SearchResultLocation struct {
	CitedText         string  `json:"cited_text"`
	SearchResultIndex int     `json:"search_result_index"`
	Source            string  `json:"source"`
	Title             *string `json:"title"`
	StartBlockIndex   int     `json:"start_block_index"`
	EndBlockIndex     int     `json:"end_block_index"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownCitation is a citation kind this SDK does not know, as received.
type UnknownCitation struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownCitation) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (CharLocation) isCitation()            {}
func (PageLocation) isCitation()            {}
func (ContentBlockLocation) isCitation()    {}
func (WebSearchResultLocation) isCitation() {}
func (SearchResultLocation) isCitation()    {}
func (UnknownCitation) isCitation()         {}

// The plain copies of the types above, and their JSON.
type (
	plainBase64Source            Base64Source
	plainPlainTextSource         PlainTextSource
	plainContentSource           ContentSource
	plainURLSource               URLSource
	plainFileSource              FileSource
	plainCharLocation            CharLocation
	plainPageLocation            PageLocation
	plainContentBlockLocation    ContentBlockLocation
	plainWebSearchResultLocation WebSearchResultLocation
	plainSearchResultLocation    SearchResultLocation
)

func (s Base64Source) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("base64", plainBase64Source(s))
}
func (s *Base64Source) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainBase64Source)(s), &s.Extra)
}

// plainTextMediaType is the media type of every PlainTextSource, written
// by MarshalJSON and not kept in Extra when decoded.
const plainTextMediaType = `"text/plain"`

func (s PlainTextSource) MarshalJSON() ([]byte, error) {
	if _, ok := s.Extra["media_type"]; !ok {
		extra := make(map[string]json.RawMessage, len(s.Extra)+1)
		for k, v := range s.Extra {
			extra[k] = v
		}
		extra["media_type"] = json.RawMessage(plainTextMediaType)
		s.Extra = extra
	}
	return wire.MarshalVariant("text", plainPlainTextSource(s))
}
func (s *PlainTextSource) UnmarshalJSON(data []byte) error {
	if err := unmarshalVariant(data, (*plainPlainTextSource)(s), &s.Extra); err != nil {
		return err
	}
	if string(s.Extra["media_type"]) == plainTextMediaType {
		delete(s.Extra, "media_type")
		if len(s.Extra) == 0 {
			s.Extra = nil
		}
	}
	return nil
}

func (s ContentSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content", plainContentSource(s))
}
func (s *ContentSource) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContentSource)(s), &s.Extra)
}

func (s URLSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("url", plainURLSource(s))
}
func (s *URLSource) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainURLSource)(s), &s.Extra)
}

func (s FileSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("file", plainFileSource(s))
}
func (s *FileSource) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainFileSource)(s), &s.Extra)
}

// decodeSource is the decoder of Source.
func decodeSource(typ string, obj []byte) (Source, error) {
	v, err := variantSource(typ, obj)
	return v, nested(err)
}

func variantSource(typ string, obj []byte) (Source, error) {
	switch typ {
	case "base64":
		return decodeAs[Base64Source](obj)
	case "text":
		return decodeAs[PlainTextSource](obj)
	case "content":
		return decodeAs[ContentSource](obj)
	case "url":
		return decodeAs[URLSource](obj)
	case "file":
		return decodeAs[FileSource](obj)
	}
	return UnknownSource{Type: typ, JSON: unknownJSON(obj)}, nil
}

func (c CharLocation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("char_location", plainCharLocation(c))
}
func (c *CharLocation) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCharLocation)(c), &c.Extra)
}

func (c PageLocation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("page_location", plainPageLocation(c))
}
func (c *PageLocation) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainPageLocation)(c), &c.Extra)
}

func (c ContentBlockLocation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content_block_location", plainContentBlockLocation(c))
}
func (c *ContentBlockLocation) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContentBlockLocation)(c), &c.Extra)
}

func (c WebSearchResultLocation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("web_search_result_location", plainWebSearchResultLocation(c))
}
func (c *WebSearchResultLocation) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainWebSearchResultLocation)(c), &c.Extra)
}

func (c SearchResultLocation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("search_result_location", plainSearchResultLocation(c))
}
func (c *SearchResultLocation) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainSearchResultLocation)(c), &c.Extra)
}

// decodeCitation is the decoder of Citation.
func decodeCitation(typ string, obj []byte) (Citation, error) {
	v, err := variantCitation(typ, obj)
	return v, nested(err)
}

func variantCitation(typ string, obj []byte) (Citation, error) {
	switch typ {
	case "char_location":
		return decodeAs[CharLocation](obj)
	case "page_location":
		return decodeAs[PageLocation](obj)
	case "content_block_location":
		return decodeAs[ContentBlockLocation](obj)
	case "web_search_result_location":
		return decodeAs[WebSearchResultLocation](obj)
	case "search_result_location":
		return decodeAs[SearchResultLocation](obj)
	}
	return UnknownCitation{Type: typ, JSON: unknownJSON(obj)}, nil
}
