package agents

import (
	"encoding/json"
	"errors"

	"github.com/agentplatform/agentplatform-go/workspaces"
)

// ModelParam is the model of a create or update request: either a bare
// model id (ModelID) or a full ModelConfig. A bare id gets the model's
// defaults (on update it keeps the stored effort).
//
//	Model: agents.ModelID(models.VendorOpus55)
//	Model: agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortMax}
type ModelParam interface{ isModelParam() }

// ModelID is a model id sent as a bare JSON string. Any string is accepted
// by the API (1 to 256 characters); see package models for known ids.
type ModelID string

func (ModelID) isModelParam() {}

// ModelConfig is a model with its settings. In a response every field is
// resolved: Effort defaults to "high", Speed to "standard", and
// InferenceGeo is "" when unset (null on the wire). In a request empty
// fields are not sent and take their defaults; on update an omitted Effort
// keeps the stored one.
type ModelConfig struct {
	ID           string         `json:"id"`
	Effort       Effort         `json:"effort,omitzero"`
	InferenceGeo workspaces.Geo `json:"inference_geo,omitzero"` // workspaces.GeoGlobal or GeoUS; "" means unset
	Speed        Speed          `json:"speed,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (ModelConfig) isModelParam() {}

// Effort is how much reasoning effort the model spends. Values the SDK does
// not know are kept as they are. "xhigh" is not accepted by every model.
type Effort string

const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortXHigh  Effort = "xhigh"
	EffortMax    Effort = "max"
)

// MarshalJSON writes the object form {"type": "<effort>"}, which the API
// always returns; it also accepts the bare string.
func (e Effort) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type string `json:"type"`
	}{string(e)})
}

// UnmarshalJSON reads {"type": …} or a bare string.
func (e *Effort) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*e = ""
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, (*string)(e))
	}
	var obj struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	if obj.Type == nil {
		return errors.New(`agents: effort has no "type"`)
	}
	*e = Effort(*obj.Type)
	return nil
}

// Speed is the model's serving speed. Unknown values are kept.
type Speed string

const (
	SpeedStandard Speed = "standard"
	SpeedFast     Speed = "fast" // not accepted by every model
)
