package check

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Rules that one package's requests borrow from another: a session carries
// an agent reference and an agent's tool lists, a deployment carries a
// session's events and resources. The owning package keeps each rule
// unexported and shares it here, keyed by the rule's function type, so
// that the borrowing package checks before sending without the rule
// becoming public API. Packages share in a var declaration; Go initializes
// an imported package first, so a borrower always finds what it needs.

var shared sync.Map // reflect.Type of F → F

// Share makes fn the rule of type F, and returns it.
func Share[F any](fn F) F {
	if _, loaded := shared.LoadOrStore(reflect.TypeFor[F](), fn); loaded {
		panic("check: a rule of type " + reflect.TypeFor[F]().String() + " is shared twice")
	}
	return fn
}

// Shared returns the rule of type F. It panics when none was shared: the
// owning package is not imported, which is a bug of this module, not of a
// caller's input.
func Shared[F any]() F {
	fn, ok := shared.Load(reflect.TypeFor[F]())
	if !ok {
		panic("check: no rule of type " + reflect.TypeFor[F]().String() + " is shared")
	}
	return fn.(F)
}

// PrefixedIDs checks references by id: each with prefix (what names the
// kind, e.g. "vlt_" for "a vault id"), none twice, reported at field[i].
func PrefixedIDs(field string, ids []string, prefix, kind string) error {
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		at := field + "[" + strconv.Itoa(i) + "]"
		if !strings.HasPrefix(id, prefix) {
			return apierror.Invalid(at, "must be "+kind+" (`"+prefix+"…`)")
		}
		if seen[id] {
			return apierror.Invalid(at, "duplicate "+strings.TrimPrefix(strings.TrimPrefix(kind, "an "), "a ")+" `"+id+"`")
		}
		seen[id] = true
	}
	return nil
}
