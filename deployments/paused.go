package deployments

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// PausedReason says why a deployment is paused: ManualPause, ErrorPause, or
// UnknownPausedReason.
type PausedReason interface{ isPausedReason() }

// ManualPause means Service.Pause was called (type "manual").
type ManualPause struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ErrorPause means a scheduled fire failed in a way that needs attention,
// and the deployment paused itself (type "error"). Fix the cause, then
// Unpause.
type ErrorPause struct {
	// Error is the failure of the run, such as
	// RunErrorEnvironmentArchived. Its Message is "": a paused reason
	// carries only the type; the run (Service.Runs) has the message.
	Error RunError `json:"error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownPausedReason is a reason this SDK does not know, kept as received.
type UnknownPausedReason struct {
	Type string          // the reason's "type"
	JSON json.RawMessage // the whole object
}

func (ManualPause) isPausedReason()         {}
func (ErrorPause) isPausedReason()          {}
func (UnknownPausedReason) isPausedReason() {}

const (
	pausedManual = "manual"
	pausedError  = "error"
)

type (
	plainManualPause ManualPause
	plainErrorPause  ErrorPause
)

// MarshalJSON writes the reason with its type first.
func (p ManualPause) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainManualPause(p))
	if err != nil {
		return nil, err
	}
	return wire.WithType(pausedManual, body)
}

// MarshalJSON writes the reason with its type first.
func (p ErrorPause) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainErrorPause(p))
	if err != nil {
		return nil, err
	}
	return wire.WithType(pausedError, body)
}

// UnmarshalJSON decodes the reason's members; its "type" is not read.
func (p *ManualPause) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainManualPause)(p), &p.Extra)
}

// UnmarshalJSON decodes the reason's members; its "type" is not read.
func (p *ErrorPause) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainErrorPause)(p), &p.Extra)
}

// MarshalJSON writes the object back as it was received.
func (u UnknownPausedReason) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func decodePausedReason(typ string, obj []byte) (PausedReason, error) {
	switch typ {
	case pausedManual:
		var p ManualPause
		err := p.UnmarshalJSON(obj)
		return p, named(typ, err)
	case pausedError:
		var p ErrorPause
		err := p.UnmarshalJSON(obj)
		return p, named(typ, err)
	}
	return UnknownPausedReason{Type: typ, JSON: clone(obj)}, nil
}
