package refserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Helpers of the files tests: multipart bodies written by hand, so that a
// test controls every byte of the framing.

const filesPath = "/v1/files"

// formPart is one part of a multipart/form-data body. A file part has
// hasFile set: its filename parameter is then sent, even when empty.
type formPart struct {
	name        string
	filename    string
	hasFile     bool
	contentType string
	content     string
}

// filePart is the file part with a name, type and content.
func filePart(filename, contentType, content string) formPart {
	return formPart{name: "file", filename: filename, hasFile: true, contentType: contentType, content: content}
}

// fieldPart is a plain form field.
func fieldPart(name, value string) formPart { return formPart{name: name, content: value} }

// multipartBody renders parts with the boundary.
func multipartBody(boundary string, parts ...formPart) string {
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "--%s\r\n", boundary)
		if p.hasFile {
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q; filename=%q\r\n", p.name, p.filename)
		} else {
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q\r\n", p.name)
		}
		if p.contentType != "" {
			fmt.Fprintf(&b, "Content-Type: %s\r\n", p.contentType)
		}
		fmt.Fprintf(&b, "\r\n%s\r\n", p.content)
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.String()
}

func multipartType(boundary string) mod {
	return withHeader("Content-Type", "multipart/form-data; boundary="+boundary)
}

// upload posts parts as a multipart form.
func (e *env) upload(t *testing.T, parts []formPart, mods ...mod) response {
	t.Helper()
	const boundary = "xYzZY"
	return e.do(t, http.MethodPost, filesPath, multipartBody(boundary, parts...), append([]mod{multipartType(boundary)}, mods...)...)
}

// uploadFile uploads one file and returns its object.
func (e *env) uploadFile(t *testing.T, filename, contentType, content string, mods ...mod) map[string]any {
	t.Helper()
	return wantOK(t, e.upload(t, []formPart{filePart(filename, contentType, content)}, mods...))
}

// listFiles lists with a query and returns the ids and next_page.
func (e *env) listFiles(t *testing.T, query string, mods ...mod) (ids []string, next any) {
	t.Helper()
	body := wantOK(t, e.do(t, http.MethodGet, filesPath+query, "", mods...))
	for _, f := range body["data"].([]any) {
		ids = append(ids, f.(map[string]any)["id"].(string))
	}
	return ids, body["next_page"]
}
