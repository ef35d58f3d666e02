package param

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Nullable is an optional request field that can also be sent as an explicit
// null. The zero value is "omitted" (with the omitzero tag option).
type Nullable[T any] struct {
	value T
	state state
}

type state uint8

const (
	omitted state = iota
	null
	set
)

// Value returns a Nullable that sends v.
func Value[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: set} }

// Null returns a Nullable that sends null.
func Null[T any]() Nullable[T] { return Nullable[T]{state: null} }

// IsZero reports whether n is omitted, so that omitzero leaves it out.
func (n Nullable[T]) IsZero() bool { return n.state == omitted }

// IsNull reports whether n sends null.
func (n Nullable[T]) IsNull() bool { return n.state == null }

// Get returns the value and whether one is set.
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == set }

// MarshalJSON writes null or the value. An omitted Nullable also writes null
// when it is marshalled without omitzero.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != set {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON reads null or a value.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*n = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*n = Value(v)
	return nil
}

// Format prints the value as fmt prints it in a plain field, "null" when
// null and "<omitted>" when omitted. Without it fmt would print the
// unexported fields raw, bypassing the value's own formatting: a secret
// inside a Nullable would then escape its redaction.
func (n Nullable[T]) Format(f fmt.State, verb rune) {
	switch n.state {
	case set:
		_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), n.value)
	case null:
		_, _ = io.WriteString(f, "null")
	default:
		_, _ = io.WriteString(f, "<omitted>")
	}
}
