// Package check holds the local validation rules shared by the resource
// packages. Each returns nil or an *apierror.ValidationError that names the
// field and the rule, so a refused call says exactly what to fix.
package check

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Length checks that s has between min and max characters (Unicode code
// points, as the API counts them).
func Length(field, s string, min, max int) error {
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		if min == max {
			return &apierror.ValidationError{Field: field, Rule: "must be exactly " + strconv.Itoa(min) + " characters"}
		}
		if min == 0 {
			return &apierror.ValidationError{Field: field, Rule: "must be at most " + strconv.Itoa(max) + " characters"}
		}
		return &apierror.ValidationError{Field: field, Rule: "must be between " + strconv.Itoa(min) + " and " + strconv.Itoa(max) + " characters"}
	}
	return nil
}

// OptionalLength is Length for a field whose empty value means "not sent".
func OptionalLength(field, s string, min, max int) error {
	if s == "" {
		return nil
	}
	return Length(field, s, min, max)
}

// Limit checks a page size: 0 means the server's default, otherwise it must
// lie in [1, max].
func Limit(v, max int) error {
	if v != 0 && (v < 1 || v > max) {
		return &apierror.ValidationError{Field: "limit", Rule: "must be between 1 and " + strconv.Itoa(max)}
	}
	return nil
}

// HexColor checks a "#RRGGBB" color.
func HexColor(field, s string) error {
	if len(s) == 7 && s[0] == '#' {
		ok := true
		for i := 1; i < 7; i++ {
			c := s[i]
			ok = ok && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		}
		if ok {
			return nil
		}
	}
	return &apierror.ValidationError{Field: field, Rule: `must be a hex color such as "#6C5BB9"`}
}

// MountPathSegments checks the segments of an absolute mount path: no NUL,
// no empty segment ("//") and no "." or ".." segment, which would point
// the mount somewhere other than it names. The reference server applies
// the same rule.
func MountPathSegments(field, p string) error {
	switch {
	case strings.ContainsRune(p, 0):
		return &apierror.ValidationError{Field: field, Rule: "must not contain a NUL character"}
	case strings.Contains(p, "//"):
		return &apierror.ValidationError{Field: field, Rule: "must not contain an empty segment (`//`)"}
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return &apierror.ValidationError{Field: field, Rule: "must not contain a `.` or `..` segment"}
		}
	}
	return nil
}
