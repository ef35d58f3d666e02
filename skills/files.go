package skills

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/form"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/skillmd"
)

// Files is where an upload's files come from: Dir, FS or Zip. The zero
// Files is none, which Create refuses.
type Files struct {
	fsys fs.FS  // Dir, FS
	top  string // Dir: the directory's name; FS: "" (the manifest's name)

	zip     io.ReaderAt // Zip
	zipSize int64

	err error // Dir could not resolve its path
}

// Dir is the skill in a directory on disk: its regular files, at every
// depth (symbolic links and other special files are left out), sent under
// the directory's own name, which is the skill's name when SKILL.md gives
// none. SKILL.md must be directly in it.
func Dir(path string) Files {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Files{err: err}
	}
	return Files{fsys: os.DirFS(abs), top: filepath.Base(abs)}
}

// FS is the skill whose files are those of fsys (its root is the skill's
// directory: SKILL.md must be at the root). They are sent under the name
// SKILL.md gives, so it must give one. fsys must give the same files each
// time it is read: a retried upload reads it again.
func FS(fsys fs.FS) Files { return Files{fsys: fsys} }

// Zip is a zip archive of the skill, size bytes read from r: its entries
// are the skill's files under one top-level directory (my-skill/SKILL.md,
// my-skill/scripts/x.py); directory entries and symbolic links are left
// out. The archive is sent as it is; r is read again by a retried upload.
func Zip(r io.ReaderAt, size int64) Files { return Files{zip: r, zipSize: size} }

// entry is a file of the upload: its path in the upload, its size, and how
// to read it.
type entry struct {
	path string
	size int64
	open func() (io.ReadCloser, error)
}

// plan is a checked upload: its parts and what SKILL.md says.
type plan struct {
	entries  []entry
	manifest skillmd.Manifest
}

// invalid is a local refusal, as apierror.ValidationError.
func invalid(p *skillmd.Problem) error {
	return &apierror.ValidationError{Field: p.Field, Rule: p.Rule}
}

// check reads the files' list and SKILL.md, and applies the API's rules
// (docs/skills-wire.md 3) before anything is sent.
func (f Files) check() (*plan, error) {
	switch {
	case f.err != nil:
		return nil, &apierror.ValidationError{Field: "Files", Rule: "cannot be read: " + f.err.Error()}
	case f.zip != nil:
		return f.checkZip()
	case f.fsys != nil:
		return f.checkFS()
	}
	return nil, &apierror.ValidationError{Field: "Files", Rule: "is required: give Dir, FS or Zip"}
}

func (f Files) checkFS() (*plan, error) {
	type found struct {
		path string
		size int64
	}
	var files []found
	var manifest []byte
	err := fs.WalkDir(f.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // directories, links, devices
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if p == skillmd.ManifestFile {
			if info.Size() > skillmd.MaxTotalBytes {
				return invalid(skillmd.TooLargeProblem())
			}
			if manifest, err = fs.ReadFile(f.fsys, p); err != nil {
				return err
			}
		}
		files = append(files, found{p, info.Size()})
		return nil
	})
	var verr *apierror.ValidationError
	switch {
	case errors.As(err, &verr):
		return nil, err
	case err != nil:
		return nil, &apierror.ValidationError{Field: "Files", Rule: "cannot be read: " + err.Error()}
	}
	top := f.top
	if top == "" {
		// An fs.FS has no name: the files go under the name SKILL.md gives.
		if manifest == nil {
			return nil, invalid(&skillmd.Problem{Field: "files", Rule: "`" + skillmd.ManifestFile + "` is required at the root of the fs.FS"})
		}
		m, p := skillmd.Parse(manifest, "")
		if p != nil {
			return nil, invalid(p)
		}
		top = m.Name
	}
	pl := &plan{}
	var set skillmd.Set
	for i, fd := range files {
		path := top + "/" + fd.path
		if _, p := set.Add(i, path, fd.size); p != nil {
			return nil, invalid(p)
		}
		name := fd.path
		pl.entries = append(pl.entries, entry{path: path, size: fd.size, open: func() (io.ReadCloser, error) { return f.fsys.Open(name) }})
	}
	if _, p := set.Finish(); p != nil {
		return nil, invalid(p)
	}
	m, p := skillmd.Parse(manifest, top)
	if p != nil {
		return nil, invalid(p)
	}
	pl.manifest = m
	return pl, nil
}

func (f Files) checkZip() (*plan, error) {
	if f.zipSize > skillmd.MaxTotalBytes {
		return nil, invalid(skillmd.TooLargeProblem())
	}
	zr, err := zip.NewReader(f.zip, f.zipSize)
	if err != nil {
		return nil, &apierror.ValidationError{Field: "Files", Rule: "is not a zip archive: " + err.Error()}
	}
	var set skillmd.Set
	var manifest []byte
	for _, zf := range zr.File {
		if !zf.Mode().IsRegular() {
			continue
		}
		rest, p := set.Add(0, zf.Name, int64(zf.UncompressedSize64))
		if p != nil {
			return nil, invalid(p)
		}
		if rest == skillmd.ManifestFile {
			if manifest, err = readZipFile(zf); err != nil {
				return nil, &apierror.ValidationError{Field: "Files", Rule: "is not a zip archive: " + err.Error()}
			}
		}
	}
	top, p := set.Finish()
	if p != nil {
		return nil, invalid(p)
	}
	m, p := skillmd.Parse(manifest, top)
	if p != nil {
		return nil, invalid(p)
	}
	archive := entry{path: top + ".zip", size: f.zipSize, open: func() (io.ReadCloser, error) {
		return io.NopCloser(io.NewSectionReader(f.zip, 0, f.zipSize)), nil
	}}
	return &plan{entries: []entry{archive}, manifest: m}, nil
}

func readZipFile(zf *zip.File) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, skillmd.MaxTotalBytes))
}

// body is an upload's multipart/form-data request body: the form's fixed
// bytes (internal/form) around the files, which each attempt streams,
// opening each as the transport reaches it.
type body struct {
	form    *form.Layout
	entries []entry
}

func newBody(pl *plan, fields []form.Field) (*body, error) {
	files := make([]form.File, len(pl.entries))
	for i, e := range pl.entries {
		ctype := "application/octet-stream"
		if strings.HasSuffix(e.path, ".zip") && len(pl.entries) == 1 {
			ctype = "application/zip"
		}
		files[i] = form.File{Field: "files[]", Filename: e.path, ContentType: ctype, Size: e.size}
	}
	l, err := form.New(fields, files)
	if err != nil {
		return nil, err
	}
	return &body{form: l, entries: pl.entries}, nil
}

// upload is the pipeline's description of the body. Every source can be
// read again, so a retry needs nothing but a fresh Open.
func (b *body) upload() *pipeline.Upload {
	return &pipeline.Upload{
		ContentType: b.form.ContentType,
		Size:        b.form.Size,
		Open:        b.open,
		Rewind:      func(error) error { return nil },
	}
}

// open returns an attempt's body; it reads nothing yet.
func (b *body) open() io.Reader {
	files := make([]io.Reader, len(b.entries))
	for i := range b.entries {
		files[i] = &fileReader{e: &b.entries[i]}
	}
	return b.form.Reader(files...)
}

// fileReader streams one file, opened at its first read and closed at its
// end, and holds it to the size it had when the upload was checked (the
// body's length is sent before it).
type fileReader struct {
	e    *entry
	rc   io.ReadCloser
	read int64
	done bool
}

func (r *fileReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	if r.rc == nil {
		rc, err := r.e.open()
		if err != nil {
			return 0, fmt.Errorf("skills: reading %s: %w", r.e.path, err)
		}
		r.rc = rc
	}
	if left := r.e.size - r.read + 1; int64(len(p)) > left {
		p = p[:left] // one byte past the size tells a file that grew
	}
	n, err := r.rc.Read(p)
	r.read += int64(n)
	switch {
	case r.read > r.e.size:
		r.finish()
		return 0, fmt.Errorf("skills: %s changed while it was uploaded: it has more than its %d bytes", r.e.path, r.e.size)
	case errors.Is(err, io.EOF) && r.read < r.e.size:
		r.finish()
		return n, fmt.Errorf("skills: %s changed while it was uploaded: %d bytes of %d", r.e.path, r.read, r.e.size)
	case errors.Is(err, io.EOF):
		r.finish()
	case err != nil:
		r.finish()
		return n, fmt.Errorf("skills: reading %s: %w", r.e.path, err)
	}
	return n, err
}

func (r *fileReader) finish() {
	r.done = true
	_ = r.rc.Close()
}
