package deployments

import (
	"fmt"
	"log/slog"
)

// Repository tokens (param.Secret) redact themselves when fmt reaches
// them, through param.Nullable too. LogValue keeps log/slog JSON handlers
// from encoding the params with encoding/json, which writes the token as the
// request body needs it.

// LogValue logs the params through fmt, tokens redacted.
func (p UpdateParams) LogValue() slog.Value {
	type plain UpdateParams // no LogValue: fmt prints the fields
	return slog.StringValue(fmt.Sprintf("%+v", plain(p)))
}

// LogValue logs the params through fmt, where tokens redact themselves.
func (p CreateParams) LogValue() slog.Value {
	type plain CreateParams // no LogValue: fmt prints the fields
	return slog.StringValue(fmt.Sprintf("%+v", plain(p)))
}
