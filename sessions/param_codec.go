package sessions

import (
	"errors"
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
func (v UserMessageParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventUserMessage), plainUserMessageParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *UserMessageParam) UnmarshalJSON(data []byte) error {
	*v = UserMessageParam{}
	return decodeVariant(data, (*plainUserMessageParam)(v), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v DefineOutcomeParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventDefineOutcome), plainDefineOutcomeParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *DefineOutcomeParam) UnmarshalJSON(data []byte) error {
	*v = DefineOutcomeParam{}
	return decodeVariant(data, (*plainDefineOutcomeParam)(v), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v SystemMessageParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventSystemMessage), plainSystemMessageParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *SystemMessageParam) UnmarshalJSON(data []byte) error {
	*v = SystemMessageParam{}
	return decodeVariant(data, (*plainSystemMessageParam)(v), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v InterruptParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventInterrupt), plainInterruptParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *InterruptParam) UnmarshalJSON(data []byte) error {
	*v = InterruptParam{}
	return decodeVariant(data, (*plainInterruptParam)(v))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v ToolConfirmationParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventToolConfirmation), plainToolConfirmationParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *ToolConfirmationParam) UnmarshalJSON(data []byte) error {
	*v = ToolConfirmationParam{}
	return decodeVariant(data, (*plainToolConfirmationParam)(v))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v CustomToolResultParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventCustomToolResult), plainCustomToolResultParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *CustomToolResultParam) UnmarshalJSON(data []byte) error {
	*v = CustomToolResultParam{}
	return decodeVariant(data, (*plainCustomToolResultParam)(v), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v ToolResultParam) MarshalJSON() ([]byte, error) {
	return marshalVariant(string(EventToolResult), plainToolResultParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *ToolResultParam) UnmarshalJSON(data []byte) error {
	*v = ToolResultParam{}
	return decodeVariant(data, (*plainToolResultParam)(v), unions)
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v TextBlockParam) MarshalJSON() ([]byte, error) {
	return marshalVariant("text", plainTextBlockParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *TextBlockParam) UnmarshalJSON(data []byte) error {
	*v = TextBlockParam{}
	return decodeVariant(data, (*plainTextBlockParam)(v))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v TextRubricParam) MarshalJSON() ([]byte, error) {
	return marshalVariant("text", plainTextRubricParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *TextRubricParam) UnmarshalJSON(data []byte) error {
	*v = TextRubricParam{}
	return decodeVariant(data, (*plainTextRubricParam)(v))
}

// MarshalJSON writes the parameter's wire object, "type" first.
func (v FileRubricParam) MarshalJSON() ([]byte, error) {
	return marshalVariant("file", plainFileRubricParam(v))
}

// UnmarshalJSON decodes the parameter's wire object; "type" is not kept.
func (v *FileRubricParam) UnmarshalJSON(data []byte) error {
	*v = FileRubricParam{}
	return decodeVariant(data, (*plainFileRubricParam)(v))
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
