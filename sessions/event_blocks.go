package sessions

import (
	"encoding/json"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// ContentBlock is a block of an event's content
// (docs/session-events-wire.md 1.3): TextBlock, ImageBlock, DocumentBlock,
// SearchResultBlock, RedactedBlock, or UnknownContentBlock for a kind newer
// than this SDK, kept as received.
type ContentBlock interface{ isContentBlock() }

// TextBlock is a block of text (type "text").
type TextBlock struct{ Text string }

// ImageBlock is an image (type "image").
type ImageBlock struct {
	Source Source // Base64Source, URLSource or FileSource
}

// DocumentBlock is a document (type "document").
type DocumentBlock struct {
	Source  Source // Base64Source, PlainTextSource, URLSource or FileSource
	Context string // "" when null
	Title   string // "" when null
}

// SearchResultBlock is a search result handed to the model as a tool result
// (type "search_result").
type SearchResultBlock struct {
	Source           string
	Title            string
	Content          []TextBlock
	CitationsEnabled bool // citations.enabled
}

// RedactedBlock stands for content withheld by model policy (type
// "redacted").
type RedactedBlock struct{}

// UnknownContentBlock is a block kind this SDK does not know, as received.
type UnknownContentBlock struct{ union.Raw }

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
type Base64Source struct{ MediaType, Data string }

// PlainTextSource is an inline plain-text document (type "text").
type PlainTextSource struct{ MediaType, Data string }

// URLSource is fetched from a URL (type "url").
type URLSource struct{ URL string }

// FileSource is an uploaded file (type "file").
type FileSource struct{ FileID string }

// UnknownSource is a source kind this SDK does not know, as received.
type UnknownSource struct{ union.Raw }

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

// rawUnion keeps the value the reader is on as the payload of an Unknown
// variant.
func (r *jsonReader) rawUnion(typ string) union.Raw {
	return union.Raw{Type: typ, JSON: json.RawMessage(r.raw())}
}

// blocks reads a content array; null reads as nil, [] as an empty slice.
func (r *jsonReader) blocks() []ContentBlock {
	var out []ContentBlock
	if !r.array(func() { out = append(out, r.block()) }) {
		return nil
	}
	if out == nil {
		out = []ContentBlock{}
	}
	return out
}

func (r *jsonReader) block() ContentBlock {
	switch typ := r.typeOf(); typ {
	case "text":
		return r.textBlock()
	case "image":
		var b ImageBlock
		r.object(func(key string) {
			if key == "source" {
				b.Source = r.source()
			} else {
				r.skip()
			}
		})
		return b
	case "document":
		var b DocumentBlock
		r.object(func(key string) {
			switch key {
			case "source":
				b.Source = r.source()
			case "context":
				b.Context = r.str()
			case "title":
				b.Title = r.str()
			default:
				r.skip()
			}
		})
		return b
	case "search_result":
		var b SearchResultBlock
		r.object(func(key string) {
			switch key {
			case "source":
				b.Source = r.str()
			case "title":
				b.Title = r.str()
			case "content":
				r.array(func() { b.Content = append(b.Content, r.textBlock()) })
			case "citations":
				r.object(func(key string) {
					if key == "enabled" {
						b.CitationsEnabled = r.boolean()
					} else {
						r.skip()
					}
				})
			default:
				r.skip()
			}
		})
		return b
	case "redacted":
		r.skip()
		return RedactedBlock{}
	default:
		return UnknownContentBlock{r.rawUnion(typ)}
	}
}

func (r *jsonReader) textBlock() TextBlock {
	var b TextBlock
	r.object(func(key string) {
		if key == "text" {
			b.Text = r.str()
		} else {
			r.skip()
		}
	})
	return b
}

func (r *jsonReader) source() Source {
	typ := r.typeOf()
	switch typ {
	case "base64", "text":
		var mediaType, data string
		r.object(func(key string) {
			switch key {
			case "media_type":
				mediaType = r.str()
			case "data":
				data = r.str()
			default:
				r.skip()
			}
		})
		if typ == "text" {
			return PlainTextSource{MediaType: mediaType, Data: data}
		}
		return Base64Source{MediaType: mediaType, Data: data}
	case "url":
		var s URLSource
		r.object(func(key string) {
			if key == "url" {
				s.URL = r.str()
			} else {
				r.skip()
			}
		})
		return s
	case "file":
		var s FileSource
		r.object(func(key string) {
			if key == "file_id" {
				s.FileID = r.str()
			} else {
				r.skip()
			}
		})
		return s
	}
	if r.null() {
		return nil
	}
	return UnknownSource{r.rawUnion(typ)}
}
