package files

import (
	"mime"
	"path"
	"strings"
)

// File names and MIME types (docs/files-wire.md 2). The MIME table is the
// family's own rather than mime.TypeByExtension, which reads the machine's
// mime.types files: a test must get the same answer everywhere.

// octetStream is the type of bytes nothing more is known about.
const octetStream = "application/octet-stream"

// typesByExtension maps a lower-case extension to its MIME type; the first
// extension listed for a type is the one an unnamed file gets.
var typesByExtension = map[string]string{
	".pdf":  "application/pdf",
	".txt":  "text/plain",
	".md":   "text/markdown",
	".csv":  "text/csv",
	".tsv":  "text/tab-separated-values",
	".html": "text/html",
	".htm":  "text/html",
	".xml":  "application/xml",
	".json": "application/json",
	".yaml": "application/yaml",
	".yml":  "application/yaml",
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".svg":  "image/svg+xml",
	".zip":  "application/zip",
	".gz":   "application/gzip",
	".tar":  "application/x-tar",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".py":   "text/x-python",
}

// extensionsByType is typesByExtension reversed, preferring the shorter
// and then alphabetically first extension (".jpg" over ".jpeg").
var extensionsByType = func() map[string]string {
	out := map[string]string{}
	for ext, typ := range typesByExtension {
		if cur, ok := out[typ]; !ok || len(ext) < len(cur) || len(ext) == len(cur) && ext < cur {
			out[typ] = ext
		}
	}
	return out
}()

// mimeTypeOf is a file's stored type: the part's Content-Type when it is
// well formed and says more than application/octet-stream (the default of
// most multipart writers, which would otherwise hide the extension), with
// its parameters dropped; else the name's extension; else
// application/octet-stream.
func mimeTypeOf(contentType, name string) string {
	if contentType != "" {
		if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt != octetStream {
			return mt
		}
	}
	if typ, ok := typesByExtension[strings.ToLower(path.Ext(baseName(name)))]; ok {
		return typ
	}
	return octetStream
}

// baseName is what follows the last / or \ of a client's file name.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// fileNameOf is a file's stored name: the final path component of the
// client's name; an empty one becomes "unnamed", plus the extension of the
// stored type when the table knows one.
func fileNameOf(name, mimeType string) string {
	if base := baseName(name); base != "" {
		return base
	}
	return "unnamed" + extensionsByType[mimeType]
}

// contentDisposition is the download's Content-Disposition: attachment
// with the quoted name, and for a name that is not plain ASCII also its
// UTF-8 form (RFC 6266 filename*), the quoted one keeping only ASCII.
func contentDisposition(name string) string {
	var ascii strings.Builder
	plain := true
	for _, r := range name {
		switch {
		case r == '"' || r == '\\':
			ascii.WriteByte('\\')
			ascii.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			plain = false
			ascii.WriteByte('_')
		case r > 0x7e:
			plain = false
			ascii.WriteByte('_')
		default:
			ascii.WriteRune(r)
		}
	}
	out := `attachment; filename="` + ascii.String() + `"`
	if !plain {
		out += "; filename*=UTF-8''" + extValue(name)
	}
	return out
}

// extValue percent-encodes s as an RFC 8187 value: every byte but letters,
// digits and !#$&+-.^_`|~.
func extValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
