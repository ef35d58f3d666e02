package sessions

import (
	"errors"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON of the event parameters. They are request types, but a
// deployment echoes its initial events and a recorded user.define_outcome
// its rubric, so they decode too, and round-trip like the response types.

type (
	plainUserMessageParam      UserMessageParam
	plainDefineOutcomeParam    DefineOutcomeParam
	plainSystemMessageParam    SystemMessageParam
	plainInterruptParam        InterruptParam
	plainToolConfirmationParam ToolConfirmationParam
	plainCustomToolResultParam CustomToolResultParam
	plainToolResultParam       ToolResultParam
	plainTextBlockParam        TextBlockParam
	plainTextRubricParam       TextRubricParam
	plainFileRubricParam       FileRubricParam
)

// MarshalJSON writes the parameter's wire object, "type" first.
func (e UserMessageParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventUserMessage), plainUserMessageParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *UserMessageParam) UnmarshalJSON(data []byte) error {
	*e = UserMessageParam{}
	return decodeVariant(data, (*plainUserMessageParam)(e), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e DefineOutcomeParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventDefineOutcome), plainDefineOutcomeParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *DefineOutcomeParam) UnmarshalJSON(data []byte) error {
	*e = DefineOutcomeParam{}
	return decodeVariant(data, (*plainDefineOutcomeParam)(e), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e SystemMessageParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSystemMessage), plainSystemMessageParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *SystemMessageParam) UnmarshalJSON(data []byte) error {
	*e = SystemMessageParam{}
	return decodeVariant(data, (*plainSystemMessageParam)(e), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e InterruptParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventInterrupt), plainInterruptParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *InterruptParam) UnmarshalJSON(data []byte) error {
	*e = InterruptParam{}
	return decodeVariant(data, (*plainInterruptParam)(e))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e ToolConfirmationParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventToolConfirmation), plainToolConfirmationParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *ToolConfirmationParam) UnmarshalJSON(data []byte) error {
	*e = ToolConfirmationParam{}
	return decodeVariant(data, (*plainToolConfirmationParam)(e))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e CustomToolResultParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventCustomToolResult), plainCustomToolResultParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *CustomToolResultParam) UnmarshalJSON(data []byte) error {
	*e = CustomToolResultParam{}
	return decodeVariant(data, (*plainCustomToolResultParam)(e), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e ToolResultParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventToolResult), plainToolResultParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *ToolResultParam) UnmarshalJSON(data []byte) error {
	*e = ToolResultParam{}
	return decodeVariant(data, (*plainToolResultParam)(e), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e TextBlockParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text", plainTextBlockParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *TextBlockParam) UnmarshalJSON(data []byte) error {
	*e = TextBlockParam{}
	return decodeVariant(data, (*plainTextBlockParam)(e))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e TextRubricParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text", plainTextRubricParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *TextRubricParam) UnmarshalJSON(data []byte) error {
	*e = TextRubricParam{}
	return decodeVariant(data, (*plainTextRubricParam)(e))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (e FileRubricParam) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("file", plainFileRubricParam(e))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (e *FileRubricParam) UnmarshalJSON(data []byte) error {
	*e = FileRubricParam{}
	return decodeVariant(data, (*plainFileRubricParam)(e))
}

// DecodeEventParam decodes one event parameter, keeping types this SDK does
// not know as UnknownEventParam. The deployments package decodes a
// deployment's stored initial events with it.
func DecodeEventParam(data []byte) (EventParam, error) {
	p, err := decodeUnion(data, decodeEventParamUnion)
	if err == nil && p == nil {
		err = errors.New("an event must be a JSON object")
	}
	return p, err
}

func decodeEventParamUnion(typ string, obj []byte) (EventParam, error) {
	switch EventType(typ) {
	case EventUserMessage:
		p, err := newVariant[plainUserMessageParam](obj, unions)
		if err != nil {
			return nil, err
		}
		return UserMessageParam(*p), nil
	case EventDefineOutcome:
		p, err := newVariant[plainDefineOutcomeParam](obj, unions)
		if err != nil {
			return nil, err
		}
		return DefineOutcomeParam(*p), nil
	case EventSystemMessage:
		p, err := newVariant[plainSystemMessageParam](obj, unions)
		if err != nil {
			return nil, err
		}
		return SystemMessageParam(*p), nil
	case EventInterrupt:
		p, err := newVariant[plainInterruptParam](obj)
		if err != nil {
			return nil, err
		}
		return InterruptParam(*p), nil
	case EventToolConfirmation:
		p, err := newVariant[plainToolConfirmationParam](obj)
		if err != nil {
			return nil, err
		}
		return ToolConfirmationParam(*p), nil
	case EventCustomToolResult:
		p, err := newVariant[plainCustomToolResultParam](obj, unions)
		if err != nil {
			return nil, err
		}
		return CustomToolResultParam(*p), nil
	case EventToolResult:
		p, err := newVariant[plainToolResultParam](obj, unions)
		if err != nil {
			return nil, err
		}
		return ToolResultParam(*p), nil
	}
	return UnknownEventParam{Type: typ, JSON: canonical(obj)}, nil
}

func decodeContentBlockParam(typ string, obj []byte) (ContentBlockParam, error) {
	if typ == "text" {
		p, err := newVariant[plainTextBlockParam](obj)
		if err != nil {
			return nil, err
		}
		return TextBlockParam(*p), nil
	}
	return UnknownContentBlockParam{Type: typ, JSON: canonical(obj)}, nil
}

func decodeRubric(typ string, obj []byte) (RubricParam, error) {
	switch typ {
	case "text":
		p, err := newVariant[plainTextRubricParam](obj)
		if err != nil {
			return nil, err
		}
		return TextRubricParam(*p), nil
	case "file":
		p, err := newVariant[plainFileRubricParam](obj)
		if err != nil {
			return nil, err
		}
		return FileRubricParam(*p), nil
	}
	return UnknownRubricParam{Type: typ, JSON: canonical(obj)}, nil
}
