package sessions

import (
	"encoding/json"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// ContentBlock is a block of an event's content
// (docs/session-events-wire.md 1.3): TextBlock, ImageBlock, DocumentBlock,
// SearchResultBlock, RedactedBlock, or UnknownContentBlock for a kind newer
// than this SDK, kept as received.
type ContentBlock interface{ isContentBlock() }

// TextBlock is a block of text (type "text").
type TextBlock struct {
	Text string `json:"text"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ImageBlock is an image (type "image").
type ImageBlock struct {
	Source Source `json:"source"` // Base64Source, URLSource or FileSource
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DocumentBlock is a document (type "document").
type DocumentBlock struct {
	Source  Source `json:"source"`           // Base64Source, PlainTextSource, URLSource or FileSource
	Context string `json:"context,omitzero"` // "" when null
	Title   string `json:"title,omitzero"`   // "" when null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SearchResultBlock is a search result handed to the model as a tool result
// (type "search_result").
type SearchResultBlock struct {
	Source    string      `json:"source"`
	Title     string      `json:"title"`
	Content   []TextBlock `json:"content"`
	Citations *Citations  `json:"citations,omitzero"` // nil when absent or null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Citations says whether a search result may be cited.
type Citations struct {
	Enabled bool `json:"enabled"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RedactedBlock stands for content withheld by model policy (type
// "redacted").
type RedactedBlock struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownContentBlock is a block kind this SDK does not know, as received.
type UnknownContentBlock struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownContentBlock) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (TextBlock) isContentBlock()           {}
func (ImageBlock) isContentBlock()          {}
func (DocumentBlock) isContentBlock()       {}
func (SearchResultBlock) isContentBlock()   {}
func (RedactedBlock) isContentBlock()       {}
func (UnknownContentBlock) isContentBlock() {}

// Source is where an image or a document comes from: Base64Source,
// PlainTextSource, URLSource, FileSource, or UnknownSource.
type Source interface{ isSource() }

// Base64Source is inline data (type "base64").
type Base64Source struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PlainTextSource is an inline plain-text document (type "text").
type PlainTextSource struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// URLSource is fetched from a URL (type "url").
type URLSource struct {
	URL string `json:"url"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FileSource is an uploaded file (type "file").
type FileSource struct {
	FileID string `json:"file_id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownSource is a source kind this SDK does not know, as received.
type UnknownSource struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownSource) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (Base64Source) isSource()    {}
func (PlainTextSource) isSource() {}
func (URLSource) isSource()       {}
func (FileSource) isSource()      {}
func (UnknownSource) isSource()   {}

// Text returns the text of the text blocks of content, concatenated.
func Text(content []ContentBlock) string {
	if len(content) == 1 {
		if t, ok := content[0].(TextBlock); ok {
			return t.Text
		}
	}
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(TextBlock); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

type (
	plainTextBlock         TextBlock
	plainImageBlock        ImageBlock
	plainDocumentBlock     DocumentBlock
	plainSearchResultBlock SearchResultBlock
	plainCitations         Citations
	plainRedactedBlock     RedactedBlock
	plainBase64Source      Base64Source
	plainPlainTextSource   PlainTextSource
	plainURLSource         URLSource
	plainFileSource        FileSource
)

// MarshalJSON writes the block's wire object, "type" first.
func (b TextBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text", plainTextBlock(b))
}

// UnmarshalJSON decodes the block's wire object; "type" is not kept.
func (b *TextBlock) UnmarshalJSON(data []byte) error {
	*b = TextBlock{}
	return decodeVariant(data, (*plainTextBlock)(b))
}

// MarshalJSON writes the block's wire object, "type" first.
func (b ImageBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("image", plainImageBlock(b))
}

// UnmarshalJSON decodes the block's wire object; "type" is not kept.
func (b *ImageBlock) UnmarshalJSON(data []byte) error {
	*b = ImageBlock{}
	return decodeVariant(data, (*plainImageBlock)(b), unions)
}

// MarshalJSON writes the block's wire object, "type" first.
func (b DocumentBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("document", plainDocumentBlock(b))
}

// UnmarshalJSON decodes the block's wire object; "type" is not kept.
func (b *DocumentBlock) UnmarshalJSON(data []byte) error {
	*b = DocumentBlock{}
	return decodeVariant(data, (*plainDocumentBlock)(b), unions)
}

// MarshalJSON writes the block's wire object, "type" first.
func (b SearchResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("search_result", plainSearchResultBlock(b))
}

// UnmarshalJSON decodes the block's wire object; "type" is not kept.
func (b *SearchResultBlock) UnmarshalJSON(data []byte) error {
	*b = SearchResultBlock{}
	return decodeVariant(data, (*plainSearchResultBlock)(b))
}

// MarshalJSON writes the wire object.
func (c Citations) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCitations(c)) }

// UnmarshalJSON decodes the wire object.
func (c *Citations) UnmarshalJSON(data []byte) error {
	*c = Citations{}
	return wire.Unmarshal(data, (*plainCitations)(c))
}

// MarshalJSON writes the block's wire object, "type" first.
func (b RedactedBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("redacted", plainRedactedBlock(b))
}

// UnmarshalJSON decodes the block's wire object; "type" is not kept.
func (b *RedactedBlock) UnmarshalJSON(data []byte) error {
	*b = RedactedBlock{}
	return decodeVariant(data, (*plainRedactedBlock)(b))
}

// MarshalJSON writes the source's wire object, "type" first.
func (s Base64Source) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("base64", plainBase64Source(s))
}

// UnmarshalJSON decodes the source's wire object; "type" is not kept.
func (s *Base64Source) UnmarshalJSON(data []byte) error {
	*s = Base64Source{}
	return decodeVariant(data, (*plainBase64Source)(s))
}

// MarshalJSON writes the source's wire object, "type" first.
func (s PlainTextSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text", plainPlainTextSource(s))
}

// UnmarshalJSON decodes the source's wire object; "type" is not kept.
func (s *PlainTextSource) UnmarshalJSON(data []byte) error {
	*s = PlainTextSource{}
	return decodeVariant(data, (*plainPlainTextSource)(s))
}

// MarshalJSON writes the source's wire object, "type" first.
func (s URLSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("url", plainURLSource(s))
}

// UnmarshalJSON decodes the source's wire object; "type" is not kept.
func (s *URLSource) UnmarshalJSON(data []byte) error {
	*s = URLSource{}
	return decodeVariant(data, (*plainURLSource)(s))
}

// MarshalJSON writes the source's wire object, "type" first.
func (s FileSource) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("file", plainFileSource(s))
}

// UnmarshalJSON decodes the source's wire object; "type" is not kept.
func (s *FileSource) UnmarshalJSON(data []byte) error {
	*s = FileSource{}
	return decodeVariant(data, (*plainFileSource)(s))
}

func decodeContentBlock(typ string, obj []byte) (ContentBlock, error) {
	switch typ {
	case "text":
		if text, ok := plainText(obj); ok {
			return TextBlock{Text: text}, nil
		}
		p, err := newVariant[plainTextBlock](obj)
		if err != nil {
			return nil, err
		}
		return TextBlock(*p), nil
	case "image":
		p, err := newVariant[plainImageBlock](obj, unions)
		if err != nil {
			return nil, err
		}
		return ImageBlock(*p), nil
	case "document":
		p, err := newVariant[plainDocumentBlock](obj, unions)
		if err != nil {
			return nil, err
		}
		return DocumentBlock(*p), nil
	case "search_result":
		p, err := newVariant[plainSearchResultBlock](obj, unions)
		if err != nil {
			return nil, err
		}
		return SearchResultBlock(*p), nil
	case "redacted":
		p, err := newVariant[plainRedactedBlock](obj)
		if err != nil {
			return nil, err
		}
		return RedactedBlock(*p), nil
	}
	return UnknownContentBlock{Type: typ, JSON: canonical(obj)}, nil
}

func decodeSource(typ string, obj []byte) (Source, error) {
	switch typ {
	case "base64":
		p, err := newVariant[plainBase64Source](obj)
		if err != nil {
			return nil, err
		}
		return Base64Source(*p), nil
	case "text":
		p, err := newVariant[plainPlainTextSource](obj)
		if err != nil {
			return nil, err
		}
		return PlainTextSource(*p), nil
	case "url":
		p, err := newVariant[plainURLSource](obj)
		if err != nil {
			return nil, err
		}
		return URLSource(*p), nil
	case "file":
		p, err := newVariant[plainFileSource](obj)
		if err != nil {
			return nil, err
		}
		return FileSource(*p), nil
	}
	return UnknownSource{Type: typ, JSON: canonical(obj)}, nil
}

// plainText returns the text of obj, a text block the decoder has already
// read and checked (valid JSON), when it is exactly
// {"type":"text","text":"…"}: the form the API writes for every block of
// a stream's previews and messages. Decoding such a block again with a
// decoder of its own, for a few dozen bytes, costs as much as the rest of
// its event (BenchmarkStreamDecoding); its text is the one string value
// after the head. Any other form is decoded as usual.
func plainText(obj []byte) (string, bool) {
	const head = `{"type":"text","text":`
	if len(obj) < len(head)+3 || string(obj[:len(head)]) != head || obj[len(obj)-1] != '}' {
		return "", false
	}
	return wire.String(obj[len(head) : len(obj)-1])
}
