package check

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Metadata limits, the same on every resource that has metadata:
// at most 16 pairs, keys of 1 to 64 characters, values of at most 512.
const (
	MaxMetadataPairs = 16
	MaxMetadataKey   = 64
	MaxMetadataValue = 512
)

var errMetadataPairs = &apierror.ValidationError{Field: "metadata", Rule: "must have at most " + strconv.Itoa(MaxMetadataPairs) + " pairs"}

// Metadata checks a create's metadata map. Keys are checked in sorted order,
// so the same map always reports the same key.
func Metadata(m map[string]string) error {
	if len(m) > MaxMetadataPairs {
		return errMetadataPairs
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if err := metadataEntry(k, &v); err != nil {
			return err
		}
	}
	return nil
}

// MetadataPatch checks an update's patch, where a nil value deletes its key.
// Only what is knowable without the stored map is checked: more than 16 keys
// set to non-empty values can never fit, whatever the patch deletes (empty
// values are not counted, since some resources treat "" as a deletion); the
// server checks the result.
func MetadataPatch(m map[string]*string) error {
	set := 0
	for _, v := range m {
		if v != nil && *v != "" {
			set++
		}
	}
	if set > MaxMetadataPairs {
		return errMetadataPairs
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := metadataEntry(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

// metadataEntry checks a key and, unless it is nil (a deletion), its value.
func metadataEntry(k string, v *string) error {
	if n := utf8.RuneCountInString(k); n < 1 || n > MaxMetadataKey {
		return &apierror.ValidationError{Field: "metadata", Rule: "keys must be between 1 and " + strconv.Itoa(MaxMetadataKey) + " characters"}
	}
	if v == nil {
		return nil
	}
	return Length("metadata."+k, *v, 0, MaxMetadataValue)
}
