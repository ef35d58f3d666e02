package check

import (
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// PrefixedIDs checks references by id: each with prefix (what names the
// kind, e.g. "vlt_" for "a vault id"), none twice, reported at field[i].
func PrefixedIDs(field string, ids []string, prefix, kind string) error {
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		at := field + "[" + strconv.Itoa(i) + "]"
		if !strings.HasPrefix(id, prefix) {
			return &apierror.ValidationError{Field: at, Rule: "must be " + kind + " (`" + prefix + "…`)"}
		}
		if seen[id] {
			return &apierror.ValidationError{Field: at, Rule: "duplicate " + strings.TrimPrefix(strings.TrimPrefix(kind, "an "), "a ") + " `" + id + "`"}
		}
		seen[id] = true
	}
	return nil
}
