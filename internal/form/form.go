// Package form lays out multipart/form-data request bodies whose files are
// streamed: the parts' headers and the closing boundary are written once,
// with mime/multipart's own writer, so that the body's exact length is known
// before it is sent (whenever every file's is), and each attempt then
// streams the files between them. Files and skills uploads share it.
package form

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/textproto"
	"strings"
)

// Field is a plain form value, written before the files.
type Field struct{ Name, Value string }

// File is a file part: its form field name, the file name it declares, its
// Content-Type ("" sends none) and its size in bytes (negative when
// unknown).
type File struct {
	Field, Filename, ContentType string
	Size                         int64
}

// Layout is a body's fixed bytes around its files.
type Layout struct {
	// ContentType is the body's Content-Type, with its boundary.
	ContentType string
	// Size is the body's exact length, or -1 when a file's is unknown.
	Size  int64
	heads [][]byte // heads[i] comes before file i
	tail  []byte
}

// quoteEscaper escapes a quoted header value as multipart.Writer's
// CreateFormFile does.
var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// New lays out a body of fields, then files, in that order.
func New(fields []Field, files []File) (*Layout, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := mw.WriteField(f.Name, f.Value); err != nil {
			return nil, err
		}
	}
	l := &Layout{ContentType: mw.FormDataContentType()}
	known := true
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+quoteEscaper.Replace(f.Field)+`"; filename="`+quoteEscaper.Replace(f.Filename)+`"`)
		if f.ContentType != "" {
			h.Set("Content-Type", f.ContentType)
		}
		if _, err := mw.CreatePart(h); err != nil {
			return nil, err
		}
		l.heads = append(l.heads, bytes.Clone(buf.Bytes()))
		buf.Reset()
		l.Size += int64(len(l.heads[len(l.heads)-1])) + max(f.Size, 0)
		known = known && f.Size >= 0
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	l.tail = bytes.Clone(buf.Bytes())
	l.Size += int64(len(l.tail))
	if !known {
		l.Size = -1
	}
	return l, nil
}

// Reader is one attempt's body: the layout's bytes around files, which
// must be one reader per File given to New, in order. It reads nothing
// until it is read.
func (l *Layout) Reader(files ...io.Reader) io.Reader {
	readers := make([]io.Reader, 0, 2*len(l.heads)+1)
	for i, h := range l.heads {
		readers = append(readers, bytes.NewReader(h), files[i])
	}
	return io.MultiReader(append(readers, bytes.NewReader(l.tail))...)
}
