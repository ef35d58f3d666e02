package apierror

// ValidationError reports a parameter that the SDK refused before sending
// anything. Field is the parameter's wire name, with dots for nesting
// ("data_residency.default_inference_geo"); Rule says what was broken
// ("must be between 1 and 255 characters").
type ValidationError struct {
	Field string
	Rule  string
}

func (e *ValidationError) Error() string {
	return "agentplatform: invalid parameter " + e.Field + ": " + e.Rule
}

// Is makes errors.Is(err, ErrInvalidRequest) true for local refusals too.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidRequest }
