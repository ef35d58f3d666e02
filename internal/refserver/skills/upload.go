package skills

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/skillmd"
)

// The upload (docs/skills-wire.md 3). The routes are RawBody: the handler
// reads the multipart form as a stream and keeps the files' bytes, which
// the size limit bounds; one byte past it ends the read with a 413.

const (
	filesPart       = "files[]"
	displayNamePart = "display_name"
	// maxDisplayNameBytes bounds what is read of a display_name part.
	maxDisplayNameBytes = 4 * skillmd.MaxDisplayNameLen
)

var errNotMultipart = kit.InvalidRequest("request body: must be multipart/form-data")

// upload is a form that passed every rule.
type upload struct {
	manifest    skillmd.Manifest
	displayName string
	files       []storedFile // by path, below the top-level directory
}

// form is what the form carried, as it is read.
type form struct {
	create      bool
	set         skillmd.Set
	files       []storedFile
	manifest    []byte
	parts       int // files[] parts read
	zipped      bool
	displayName *string
	budget      int64 // the bytes a part may still carry
	digest      hash.Hash
}

// readUpload reads and checks the form; nil, nil when the request replays
// an idempotent one (its response was sent).
func readUpload(c *kit.Call, create bool) (*upload, error) {
	mt, params, err := mime.ParseMediaType(c.R.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, errNotMultipart
	}
	f := &form{create: create, budget: skillmd.MaxTotalBytes, digest: sha256.New()}
	mr := multipart.NewReader(c.R.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errNotMultipart
		}
		err = f.readPart(part)
		_ = part.Close()
		if err != nil {
			return nil, err
		}
	}
	c.Ex.SetBodyRead()
	top, p := f.set.Finish()
	if p != nil {
		return nil, problemError(p)
	}
	m, p := skillmd.Parse(f.manifest, top)
	if p != nil {
		return nil, problemError(p)
	}
	var sum [32]byte
	f.digest.Sum(sum[:0])
	replayed, err := c.ClaimIdempotency(sum)
	if err != nil || replayed {
		return nil, err
	}
	slices.SortFunc(f.files, func(a, b storedFile) int { return strings.Compare(a.path, b.path) })
	up := &upload{manifest: m, files: f.files}
	if f.displayName != nil {
		up.displayName = *f.displayName
	}
	return up, nil
}

// problemError is a skillmd rule as the API answers it.
func problemError(p *skillmd.Problem) error {
	if p.TooLarge {
		return kit.NewAPIError(http.StatusRequestEntityTooLarge, kit.ErrRequestTooLarge, "%s", p.Error())
	}
	return kit.InvalidField(p.Field, "%s", p.Rule)
}

// note adds a part to the idempotency digest: what the form says, not how
// it is framed.
func (f *form) note(fields ...string) {
	for _, s := range fields {
		f.digest.Write([]byte(s))
		f.digest.Write([]byte{0})
	}
}

func (f *form) readPart(part *multipart.Part) error {
	switch name := part.FormName(); {
	case name == filesPart:
		return f.readFile(part)
	case name == displayNamePart && f.create:
		if f.displayName != nil {
			return kit.InvalidField(name, "must appear once")
		}
		raw, err := io.ReadAll(io.LimitReader(part, maxDisplayNameBytes+1))
		if err != nil {
			return errNotMultipart
		}
		s := string(raw)
		if p := skillmd.CheckDisplayName(s); p != nil {
			return problemError(p)
		}
		f.displayName = &s
		f.note(name, s)
		return nil
	case name == "":
		return kit.InvalidRequest("request body: every part must have a name")
	default:
		return kit.InvalidField(name, "unknown field")
	}
}

// readFile reads a files[] part: a file, or a zip archive of them all.
func (f *form) readFile(part *multipart.Part) error {
	i := f.parts
	f.parts++
	path := ""
	// The raw filename parameter: Part.FileName keeps only its base name.
	if _, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil {
		path = params["filename"]
	}
	ctype := part.Header.Get("Content-Type")
	data, err := io.ReadAll(io.LimitReader(part, f.budget+1))
	if err != nil {
		return errNotMultipart
	}
	if int64(len(data)) > f.budget {
		return problemError(skillmd.TooLargeProblem())
	}
	sum := sha256.Sum256(data)
	f.note(filesPart, path, ctype, string(sum[:]))
	isZip := strings.HasSuffix(strings.ToLower(path), ".zip") || strings.HasPrefix(ctype, "application/zip")
	switch {
	case isZip && i > 0, !isZip && f.zipped:
		return kit.InvalidField("files", "a zip archive must be the only file")
	case isZip:
		f.zipped = true
		return f.unzip(i, path, data)
	}
	f.budget -= int64(len(data))
	return f.add(i, path, data)
}

func (f *form) add(i int, path string, data []byte) error {
	rest, p := f.set.Add(i, path, int64(len(data)))
	if p != nil {
		return problemError(p)
	}
	if rest == skillmd.ManifestFile {
		f.manifest = data
	}
	f.files = append(f.files, storedFile{path: rest, data: data})
	return nil
}

// unzip adds an archive's regular files, each read against what is left of
// the size limit: the archive's own bytes and its unpacked ones are each
// held to it.
func (f *form) unzip(i int, name string, data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return kit.InvalidField(skillmd.FilesField(i), "`%s` is not a zip archive", name)
	}
	left := int64(skillmd.MaxTotalBytes)
	for _, zf := range zr.File {
		if !zf.Mode().IsRegular() {
			continue // directories, symlinks
		}
		rc, err := zf.Open()
		if err != nil {
			return kit.InvalidField(skillmd.FilesField(i), "`%s` is not a zip archive", name)
		}
		content, err := io.ReadAll(io.LimitReader(rc, left+1))
		_ = rc.Close()
		if err != nil {
			return kit.InvalidField(skillmd.FilesField(i), "`%s` is not a zip archive", name)
		}
		if int64(len(content)) > left {
			return problemError(skillmd.TooLargeProblem())
		}
		left -= int64(len(content))
		if err := f.add(i, zf.Name, content); err != nil {
			return err
		}
	}
	return nil
}
