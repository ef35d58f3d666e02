package deployments

import (
	"bytes"
	"encoding/json"
)

// clearableString applies an optional nullable string with a maximum
// length: omitted keeps cur; null and "" clear it (stored as null). The
// agents code has the same rule for its own descriptions.
func clearableString(path string, o optional[string], cur *string, maxLen int) (*string, error) {
	if !o.Set {
		return cur, nil
	}
	if o.Null || o.Value == "" {
		return nil, nil
	}
	if err := checkLength(path, o.Value, 0, maxLen); err != nil {
		return nil, err
	}
	return &o.Value, nil
}

// sameJSON compares two wire forms.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
