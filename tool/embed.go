package tool

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentplatform/agentplatform-go/internal/goschema"
)

// dropEmbedFields applies the SDK's rule for `json:",embed"` fields (see
// goschema.DropEmbedFields), shared with the structured outputs of package
// messages.
func dropEmbedFields(schema *jsonschema.Schema, t reflect.Type) {
	goschema.DropEmbedFields(schema, t)
}
