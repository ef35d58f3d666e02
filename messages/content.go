package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/union"
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

func (b *Blocks) UnmarshalJSON(data []byte) error {
	v, err := union.DecodeSlice(data, DecodeContentBlock)
	*b = v
	return err
}

// decodeContent reads a string or an array of blocks; null or absent is nil.
func decodeContent(raw json.RawMessage) (Content, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return Text(s), err
	}
	var b Blocks
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	return b, nil
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
}

// PlainTextSource is an inline plain-text document (type "text"); the media
// type is always text/plain.
type PlainTextSource struct {
	Data string `json:"data"`
}

// ContentSource is a document made of content (type "content"): Text, or
// Blocks of text and image blocks.
type ContentSource struct {
	Content Content `json:"content"`
}

// URLSource is fetched from an https URL (type "url"): an image or a PDF.
type URLSource struct {
	URL string `json:"url"`
}

// FileSource is a file uploaded with the Files API (type "file"; needs the
// files-api-2025-04-14 beta, which the SDK then sends).
type FileSource struct {
	FileID string `json:"file_id"`
}

// UnknownSource is a source kind this SDK does not know, as received.
type UnknownSource struct{ union.Raw }

func (Base64Source) isSource()    {}
func (PlainTextSource) isSource() {}
func (ContentSource) isSource()   {}
func (URLSource) isSource()       {}
func (FileSource) isSource()      {}
func (UnknownSource) isSource()   {}

func (s Base64Source) MarshalJSON() ([]byte, error) {
	type plain Base64Source
	return union.Marshal("base64", plain(s))
}

func (s PlainTextSource) MarshalJSON() ([]byte, error) {
	return union.Marshal("text", struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	}{"text/plain", s.Data})
}

func (s ContentSource) MarshalJSON() ([]byte, error) {
	type plain ContentSource
	return union.Marshal("content", plain(s))
}

func (s URLSource) MarshalJSON() ([]byte, error) {
	type plain URLSource
	return union.Marshal("url", plain(s))
}

func (s FileSource) MarshalJSON() ([]byte, error) {
	type plain FileSource
	return union.Marshal("file", plain(s))
}

func decodeSource(raw json.RawMessage) (Source, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	typ, err := union.Type(raw)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	switch typ {
	case "base64":
		var s Base64Source
		return s, json.Unmarshal(raw, &s)
	case "text":
		var s PlainTextSource
		return s, json.Unmarshal(raw, &s)
	case "content":
		var w struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, err
		}
		c, err := decodeContent(w.Content)
		return ContentSource{Content: c}, err
	case "url":
		var s URLSource
		return s, json.Unmarshal(raw, &s)
	case "file":
		var s FileSource
		return s, json.Unmarshal(raw, &s)
	}
	return UnknownSource{union.NewRaw(typ, raw)}, nil
}

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
}

// WebSearchResultLocation cites a web search result (type
// "web_search_result_location").
type WebSearchResultLocation struct {
	CitedText      string  `json:"cited_text"`
	URL            string  `json:"url"`
	Title          *string `json:"title"`
	EncryptedIndex string  `json:"encrypted_index"`
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
}

// UnknownCitation is a citation kind this SDK does not know, as received.
type UnknownCitation struct{ union.Raw }

func (CharLocation) isCitation()            {}
func (PageLocation) isCitation()            {}
func (ContentBlockLocation) isCitation()    {}
func (WebSearchResultLocation) isCitation() {}
func (SearchResultLocation) isCitation()    {}
func (UnknownCitation) isCitation()         {}

func (c CharLocation) MarshalJSON() ([]byte, error) {
	type plain CharLocation
	return union.Marshal("char_location", plain(c))
}

func (c PageLocation) MarshalJSON() ([]byte, error) {
	type plain PageLocation
	return union.Marshal("page_location", plain(c))
}

func (c ContentBlockLocation) MarshalJSON() ([]byte, error) {
	type plain ContentBlockLocation
	return union.Marshal("content_block_location", plain(c))
}

func (c WebSearchResultLocation) MarshalJSON() ([]byte, error) {
	type plain WebSearchResultLocation
	return union.Marshal("web_search_result_location", plain(c))
}

func (c SearchResultLocation) MarshalJSON() ([]byte, error) {
	type plain SearchResultLocation
	return union.Marshal("search_result_location", plain(c))
}

func decodeCitation(data []byte) (Citation, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "char_location":
		var c CharLocation
		return c, json.Unmarshal(data, &c)
	case "page_location":
		var c PageLocation
		return c, json.Unmarshal(data, &c)
	case "content_block_location":
		var c ContentBlockLocation
		return c, json.Unmarshal(data, &c)
	case "web_search_result_location":
		var c WebSearchResultLocation
		return c, json.Unmarshal(data, &c)
	case "search_result_location":
		var c SearchResultLocation
		return c, json.Unmarshal(data, &c)
	}
	return UnknownCitation{union.NewRaw(typ, data)}, nil
}

var errNotObject = errors.New("not a JSON object")
