package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// Model config and effort (docs/managed-agents-wire.md 3.2).

var (
	maEfforts       = []string{"low", "medium", "high", "xhigh", "max"}
	maInferenceGeos = []string{"global", "us"}
	maSpeeds        = []string{"standard", "fast"}
)

// DefaultEffort is the effort of a model config that names none
// (**choice**: no per-model table).
const DefaultEffort = "high"

// ModelConfig is a resolved model config: every field is set except
// inferenceGeo, which is nil when unset.
type ModelConfig struct {
	ID           string
	Effort       string
	InferenceGeo *string
	Speed        string
}

type effortJSON struct {
	Type string `json:"type"`
}

type modelConfigJSON struct {
	ID           string     `json:"id"`
	Effort       effortJSON `json:"effort"`
	InferenceGeo *string    `json:"inference_geo"`
	Speed        string     `json:"speed"`
}

func (m ModelConfig) view() modelConfigJSON {
	return modelConfigJSON{ID: m.ID, Effort: effortJSON{Type: m.Effort}, InferenceGeo: m.InferenceGeo, Speed: m.Speed}
}

type modelConfigBody struct {
	ID           kit.Optional[string]          `json:"id"`
	Effort       kit.Optional[json.RawMessage] `json:"effort"`
	InferenceGeo kit.Optional[string]          `json:"inference_geo"`
	Speed        kit.Optional[string]          `json:"speed"`
}

type effortBody struct {
	Type kit.Optional[string] `json:"type"`
}

// ParseModelConfig reads a request model at path: a model id string or a
// model config object. base is the stored config on update (nil on
// create): a field omitted from the object takes its default, except an
// omitted effort, which keeps base's effort. Session create with overrides
// can call it too. The result is checked against the model catalogue
// (checkModelConfig).
func ParseModelConfig(path string, raw json.RawMessage, base *ModelConfig) (ModelConfig, error) {
	m, explicitEffort, err := readModelConfig(path, raw, base)
	if err != nil {
		return m, err
	}
	return m, checkModelConfig(path, m, raw, explicitEffort)
}

// checkModelConfig applies the catalogue (docs/api-choices.md "Models"):
// the id must name a catalogue model, and an effort level other than the
// default must be one the model's capabilities allow. The default is
// accepted for every model, even one without effort support: it is what a
// config that names no effort gets, and what the server reports for such a
// model, so a model config read from an agent can always be sent back. An
// effort kept from the stored config on update is checked like a named one:
// changing only the model of an agent whose effort the new model excludes
// is refused, naming model, rather than silently changing the effort.
func checkModelConfig(path string, m ModelConfig, raw json.RawMessage, explicitEffort bool) error {
	idPath := path
	if kit.JSONKind(raw) == '{' {
		idPath = kit.JoinPath(path, "id")
	}
	if err := checkModelID(idPath, m.ID); err != nil {
		return err
	}
	switch {
	case m.Effort == DefaultEffort || messages.ModelSupportsEffort(m.ID, m.Effort):
	case explicitEffort:
		return kit.InvalidField(kit.JoinPath(path, "effort"), "%s is not supported by %s", m.Effort, m.ID)
	default:
		return kit.InvalidField(path, "the agent's effort %s is not supported by %s; send %s to change it",
			m.Effort, m.ID, kit.JoinPath(path, "effort"))
	}
	return nil
}

// checkModelID refuses a model id the catalogue does not list, wherever a
// request names a model (an agent's model, an advisor's).
func checkModelID(path, id string) error {
	if !messages.KnownModel(id) {
		return kit.InvalidField(path, "unknown model `%s`; the models are listed by GET /v1/models", id)
	}
	return nil
}

// readModelConfig is ParseModelConfig's syntax part. explicitEffort reports
// whether the request named an effort level (not null).
func readModelConfig(path string, raw json.RawMessage, base *ModelConfig) (m ModelConfig, explicitEffort bool, err error) {
	m = ModelConfig{Effort: DefaultEffort, Speed: "standard"}
	if base != nil {
		m.Effort = base.Effort
	}
	switch kit.JSONKind(raw) {
	case '"':
		if err := json.Unmarshal(raw, &m.ID); err != nil {
			return m, false, kit.InvalidField(path, "must be a string")
		}
		return m, false, kit.CheckLength(path, m.ID, 1, 256)
	case '{':
	case 'n':
		return m, false, kit.InvalidField(path, "must not be null")
	default:
		return m, false, kit.InvalidField(path, "must be a model id string or a model config object")
	}
	var body modelConfigBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return m, false, err
	}
	if err := kit.Required(kit.JoinPath(path, "id"), body.ID); err != nil {
		return m, false, err
	}
	m.ID = body.ID.Value
	if err := kit.CheckLength(kit.JoinPath(path, "id"), m.ID, 1, 256); err != nil {
		return m, false, err
	}
	if body.Effort.Set {
		m.Effort = DefaultEffort
		if body.Effort.Present() {
			e, err := parseEffort(kit.JoinPath(path, "effort"), body.Effort.Value)
			if err != nil {
				return m, false, err
			}
			m.Effort, explicitEffort = e, true
		}
	}
	if body.InferenceGeo.Present() {
		p := kit.JoinPath(path, "inference_geo")
		if err := kit.OneOf(p, body.InferenceGeo.Value, maInferenceGeos...); err != nil {
			return m, false, err
		}
		m.InferenceGeo = kit.StringPtr(body.InferenceGeo.Value)
	}
	if body.Speed.Present() {
		if err := kit.OneOf(kit.JoinPath(path, "speed"), body.Speed.Value, maSpeeds...); err != nil {
			return m, false, err
		}
		m.Speed = body.Speed.Value
	}
	return m, explicitEffort, nil
}

// parseEffort reads an effort: the bare string "high" or {"type":"high"}.
func parseEffort(path string, raw json.RawMessage) (string, error) {
	var v string
	switch kit.JSONKind(raw) {
	case '"':
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", kit.InvalidField(path, "must be a string")
		}
		return v, kit.OneOf(path, v, maEfforts...)
	case '{':
		var body effortBody
		if err := kit.DecodeAt(path, raw, &body); err != nil {
			return "", err
		}
		if err := kit.Required(kit.JoinPath(path, "type"), body.Type); err != nil {
			return "", err
		}
		return body.Type.Value, kit.OneOf(kit.JoinPath(path, "type"), body.Type.Value, maEfforts...)
	}
	return "", kit.InvalidField(path, "must be an effort string or an object")
}
