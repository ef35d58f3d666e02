package agenttoolset

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// resolve turns a path the model gave into one relative to the toolset's
// directory, for the os.Root. It refuses, with a message naming field, a
// path that lies outside the directory as written; a symbolic link that
// leads outside is refused later, by the os.Root itself (see fsError).
func (t *Toolset) resolve(field, p string) (string, error) {
	if t.isClosedNow() {
		return "", errClosed
	}
	if p == "" {
		return "", fmt.Errorf("%s must not be empty", field)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%s must not contain a NUL byte", field)
	}
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		for _, base := range []string{t.dir, t.alt} {
			if base == "" {
				continue
			}
			if rel, ok := within(base, p); ok {
				return rel, nil
			}
		}
		return "", fmt.Errorf("%s %q is outside the working directory %s: give a path inside it, or one relative to it", field, p, t.dir)
	}
	rel := filepath.Clean(p)
	if escapes(rel) {
		return "", fmt.Errorf("%s %q leads outside the working directory", field, p)
	}
	return rel, nil
}

// within reports p, absolute and clean, relative to base when it lies
// inside base.
func within(base, p string) (string, bool) {
	rel, err := filepath.Rel(base, p)
	if err != nil || filepath.IsAbs(rel) || escapes(rel) {
		return "", false
	}
	return rel, true
}

func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fsError rewrites an error of the os.Root for the model: it names the
// path as the model wrote it (shown), never what lies outside the
// directory, and says plainly when the path was refused for leaving it.
func fsError(field, shown string, err error) error {
	if isEscape(err) {
		return fmt.Errorf("%s %q leads outside the working directory (through a symbolic link or ..): refused", field, shown)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %q does not exist", field, shown)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s %q: permission denied", field, shown)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %q: %v", field, shown, pe.Err)
	}
	return fmt.Errorf("%s %q: %v", field, shown, err)
}

// isEscape reports whether the os.Root refused a path for leaving the
// directory. The os package does not export that error, so its text is
// matched; a test pins the message a refused symbolic link gets.
func isEscape(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if err.Error() == "path escapes from parent" {
			return true
		}
	}
	return false
}
