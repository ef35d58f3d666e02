package messages

import "strconv"

// Local checks of the request fields that select platform features: speed,
// the container's skills and diagnostics. They word each rule as the
// server does (docs/messages-wire.md 2.1).

// validSpeed checks speed against the modes the API knows.
func validSpeed(s Speed) error {
	switch s {
	case "", SpeedStandard, SpeedFast:
		return nil
	}
	return invalid("speed", "Input should be 'standard' or 'fast'")
}

// validContainer checks the skills of the container field.
func validContainer(c ContainerParams) error {
	for i, s := range c.Skills {
		field := "container.skills." + strconv.Itoa(i)
		if s.SkillID == "" {
			return invalid(field+".skill_id", fieldRequired)
		}
		switch s.Type {
		case SkillVendor, SkillCustom:
		case "":
			return invalid(field+".type", fieldRequired)
		default:
			return invalid(field+".type", "Input should be 'vendor' or 'custom'")
		}
	}
	return nil
}

// validDiagnostics checks diagnostics.previous_message_id: when set, an id
// that is not empty.
func validDiagnostics(d *DiagnosticsParams) error {
	if d != nil && d.PreviousMessageID != nil && *d.PreviousMessageID == "" {
		return invalid("diagnostics.previous_message_id", "must not be empty; send null on the first turn")
	}
	return nil
}

// validatePlatform runs the checks above on a create request.
func (p *MessageParams) validatePlatform() error {
	if err := validSpeed(p.Speed); err != nil {
		return err
	}
	if c, ok := p.Container.Get(); ok {
		if err := validContainer(c); err != nil {
			return err
		}
	}
	return validDiagnostics(p.Diagnostics)
}
