package refserver_test

import (
	"archive/zip"
	"bytes"
	"mime/multipart"
	"net/textproto"
	"testing"
)

// Helpers of the skills tests: multipart upload bodies built by hand, so
// that every rule of docs/skills-wire.md 3 can be sent as it is.

// part is one part of an upload form.
type part struct {
	name, filename, contentType string
	data                        []byte
}

// skillFile is a files[] part.
func skillFile(path, content string) part {
	return part{name: "files[]", filename: path, data: []byte(content)}
}

// manifest is a SKILL.md with name and description.
func manifest(name, description string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n# " + name + "\n\nInstructions.\n"
}

// form builds a multipart body and its Content-Type.
func form(t *testing.T, parts ...part) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p.name + `"`
		if p.filename != "" {
			cd += `; filename="` + p.filename + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		w, err := mw.CreatePart(h)
		must(t, err)
		_, err = w.Write(p.data)
		must(t, err)
	}
	must(t, mw.Close())
	return buf.String(), mw.FormDataContentType()
}

// zipOf is a zip archive of path → content, in the order given.
func zipOf(t *testing.T, files ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f[0])
		must(t, err)
		_, err = w.Write([]byte(f[1]))
		must(t, err)
	}
	must(t, zw.Close())
	return buf.Bytes()
}

// uploadForm posts a form to path.
func (e *env) uploadForm(t *testing.T, path string, parts []part, mods ...mod) response {
	t.Helper()
	body, ct := form(t, parts...)
	return e.do(t, "POST", path, body, append([]mod{withHeader("Content-Type", ct)}, mods...)...)
}

// createSkill creates a skill named name and returns the skill and its
// first version.
func (e *env) createSkill(t *testing.T, name string, mods ...mod) (skill, version string) {
	t.Helper()
	sk := wantOK(t, e.uploadForm(t, "/v1/skills", []part{skillFile(name+"/SKILL.md", manifest(name, "Does "+name+"."))}, mods...))
	return sk["id"].(string), sk["latest_version_id"].(string)
}
