package memorystores

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Rules the SDK checks before sending (docs/managed-agents-wire.md 10 and
// 11). Each refusal names the field as the server would, so a local and a
// remote refusal read the same. Enum values (view, operation) are not
// checked here: a value newer than this SDK must still reach the server.
const (
	maxNameLength        = 255
	maxDescriptionLength = 1024
	maxPathBytes         = 1024
	maxContentBytes      = 102400
	maxListLimit         = 100
)

func checkName(name string) error {
	if err := check.Length("name", name, 1, maxNameLength); err != nil {
		return err
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return &apierror.ValidationError{Field: "name", Rule: "must not contain control characters"}
	}
	return nil
}

func checkDescription(d string) error {
	return check.Length("description", d, 0, maxDescriptionLength)
}

// checkPath is the memory path rule: it starts with "/", is 2 to 1024 UTF-8
// bytes, has no empty, "." or ".." segment (so no trailing "/") and no
// control or format character. The platform also requires NFC
// normalization, which needs tables this module does not carry: not checked.
func checkPath(field, p string) error {
	switch {
	case !utf8.ValidString(p):
		// encoding/json would silently replace the bad bytes, storing
		// a path the caller never wrote.
		return &apierror.ValidationError{Field: field, Rule: "must be valid UTF-8"}
	case !strings.HasPrefix(p, "/"):
		return &apierror.ValidationError{Field: field, Rule: "must start with `/`"}
	}
	for seg := range strings.SplitSeq(p[1:], "/") { // "/" alone is one empty segment
		if seg == "" || seg == "." || seg == ".." {
			return &apierror.ValidationError{Field: field, Rule: "must not contain empty, `.` or `..` segments"}
		}
	}
	if len(p) > maxPathBytes {
		return &apierror.ValidationError{Field: field, Rule: "must be between 2 and " + strconv.Itoa(maxPathBytes) + " bytes"}
	}
	if strings.IndexFunc(p, forbiddenPathRune) >= 0 {
		return &apierror.ValidationError{Field: field, Rule: "must not contain control or format characters"}
	}
	return nil
}

func forbiddenPathRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// checkPathPrefix accepts "/" or a valid path followed by "/": a prefix
// names a directory, so "/notes" would also match "/notes-old/…".
func checkPathPrefix(p string) error {
	if p == "" || p == "/" {
		return nil
	}
	if !strings.HasSuffix(p, "/") {
		return &apierror.ValidationError{Field: "path_prefix", Rule: "must end with `/`"}
	}
	return checkPath("path_prefix", strings.TrimSuffix(p, "/"))
}

func checkContent(content string) error {
	if !utf8.ValidString(content) {
		return &apierror.ValidationError{Field: "content", Rule: "must be valid UTF-8"}
	}
	if len(content) > maxContentBytes {
		return &apierror.ValidationError{Field: "content", Rule: "must be at most " + strconv.Itoa(maxContentBytes) + " bytes"}
	}
	return nil
}

// checkSHA256 accepts the form content_sha256 is reported in: 64 lowercase
// hexadecimal characters.
func checkSHA256(field, v string) error {
	ok := len(v) == 64
	for i := 0; ok && i < len(v); i++ {
		c := v[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
	}
	if !ok {
		return &apierror.ValidationError{Field: field, Rule: "must be 64 lowercase hexadecimal characters"}
	}
	return nil
}
