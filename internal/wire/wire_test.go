package wire_test

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// shape is a union as the SDK declares them.
type shape interface{ isShape() }

type circle struct {
	Radius float64                       `json:"radius"`
	Extra  map[string]stdjson.RawMessage `json:",embed"`
}

type unknownShape struct {
	Type string
	JSON stdjson.RawMessage
}

func (circle) isShape()       {}
func (unknownShape) isShape() {}

type plainCircle circle

func (c circle) MarshalJSON() ([]byte, error) { return wire.MarshalVariant("circle", plainCircle(c)) }

func (u unknownShape) MarshalJSON() ([]byte, error) { return u.JSON, nil }

var shapes = wire.Join(wire.Union(func(typ string, obj []byte) (shape, error) {
	switch typ {
	case "circle":
		var c circle
		err := wire.Variant(obj, (*plainCircle)(&c), &c.Extra)
		return c, err
	}
	return unknownShape{Type: typ, JSON: append(stdjson.RawMessage(nil), obj...)}, nil
}))

// drawing is a response type: its union field needs the package's option.
type drawing struct {
	Name      string                        `json:"name"`
	Shapes    []shape                       `json:"shapes"`
	Tags      []string                      `json:"tags"`
	Labels    map[string]string             `json:"labels"`
	CreatedAt time.Time                     `json:"created_at"`
	DoneAt    time.Time                     `json:"done_at,omitzero"`
	Extra     map[string]stdjson.RawMessage `json:",embed"`
}

type plainDrawing drawing

func (d *drawing) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainDrawing)(d), shapes)
}
func (d drawing) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDrawing(d)) }

func TestRoundTripKeepsUnknownMembersNullsAndUnionVariants(t *testing.T) {
	in := `{"name":"n","shapes":[{"type":"circle","radius":2,"fill":"red"},{"type":"hexagon","sides":6}],` +
		`"tags":null,"labels":{},"created_at":"2026-11-26T07:00:00Z","future":{"a":[1,2]}}`
	var d drawing
	require.NoError(t, stdjson.Unmarshal([]byte(in), &d))
	require.Equal(t, unknownShape{Type: "hexagon", JSON: stdjson.RawMessage(`{"type":"hexagon","sides":6}`)}, d.Shapes[1])
	require.JSONEq(t, `{"a":[1,2]}`, string(d.Extra["future"]))
	require.JSONEq(t, `"red"`, string(d.Shapes[0].(circle).Extra["fill"]))

	out, err := stdjson.Marshal(d)
	require.NoError(t, err)
	require.JSONEq(t, in, string(out))

	var again drawing
	require.NoError(t, stdjson.Unmarshal(out, &again))
	require.Empty(t, cmp.Diff(d, again))
}

func TestTypeOf(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"a"}`: "a",
		` { "x" : {"type":"no"} , "type" : "b" } `: "b",
		`{"x":["type","}",{"y":"\""}],"type":"c"}`: "c",
		`{"ty\u0070e":"d"}`:                        "d",
		`{"type":"e\u0021"}`:                       "e!",
	} {
		got, err := wire.TypeOf([]byte(in))
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{`{}`, `{"x":1}`, `{"type":1}`, `{"type":null}`} {
		_, err := wire.TypeOf([]byte(in))
		require.ErrorIs(t, err, wire.ErrNoType, in)
	}
}

func TestUnionRejectsNonObjects(t *testing.T) {
	var d drawing
	err := stdjson.Unmarshal([]byte(`{"shapes":[1]}`), &d)
	require.Error(t, err)
	require.NoError(t, stdjson.Unmarshal([]byte(`{"shapes":[null]}`), &d))
	require.Nil(t, d.Shapes[0])
}

func TestInvalidUTF8AndDuplicateNamesAreErrors(t *testing.T) {
	var d drawing
	require.Error(t, stdjson.Unmarshal([]byte("{\"name\":\"\xff\"}"), &d))
	err := stdjson.Unmarshal([]byte(`{"name":"a","name":"b"}`), &d)
	require.Error(t, err)
	require.False(t, errors.Is(err, wire.ErrNoType))
}

func FuzzTypeOfAgreesWithTheDecoder(f *testing.F) {
	for _, s := range []string{`{"type":"a"}`, `{"a":{"type":"b"},"type":"c"}`, `{"t\"":1,"type":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var probe struct {
			Type *string `json:"type"`
		}
		if err := wire.Unmarshal([]byte(s), &probe); err != nil || probe.Type == nil {
			return
		}
		var obj map[string]stdjson.RawMessage
		if wire.Unmarshal([]byte(s), &obj) != nil {
			return
		}
		got, err := wire.TypeOf([]byte(s))
		require.NoError(t, err, s)
		require.Equal(t, *probe.Type, got, fmt.Sprintf("%q", s))
	})
}

func TestUnknownMembersEncodeInAFixedOrder(t *testing.T) {
	var d drawing
	require.NoError(t, stdjson.Unmarshal([]byte(`{"z":1,"b":2,"m":3,"a":4,"name":"n"}`), &d))
	for range 20 {
		out, err := stdjson.Marshal(d)
		require.NoError(t, err)
		require.Equal(t, `{"name":"n","shapes":null,"tags":null,"labels":null,"created_at":"0001-01-01T00:00:00Z","a":4,"b":2,"m":3,"z":1}`, string(out))
	}
}

// An error inside a union's variant names the variant's place in the
// document and the member inside it, and does not unwrap to the engine's
// error types.
func TestErrorsInsideVariantsNameTheirWholePath(t *testing.T) {
	var d drawing
	err := wire.Unmarshal([]byte(`{"shapes":[{"type":"circle","radius":"big"}]}`), (*plainDrawing)(&d), shapes)
	require.Error(t, err)
	require.Contains(t, err.Error(), "/shapes/0")
	require.Contains(t, err.Error(), "/radius")
	var werr *wire.Error
	require.ErrorAs(t, err, &werr)
	require.Nil(t, errors.Unwrap(err))
}

func TestTaggedAndUnknown(t *testing.T) {
	out, err := wire.Tagged("auto", struct {
		N int `json:"n,omitempty"`
	}{})
	require.NoError(t, err)
	require.Equal(t, `{"type":"auto"}`, string(out))
	out, err = wire.Tagged("tool", struct {
		Name string `json:"name"`
	}{"t"})
	require.NoError(t, err)
	require.Equal(t, `{"type":"tool","name":"t"}`, string(out))
	_, err = wire.Tagged("x", []int{1})
	require.Error(t, err, "a variant that is not an object")

	out, err = wire.Unknown("future", nil)
	require.NoError(t, err)
	require.Equal(t, `{"type":"future"}`, string(out))
	out, err = wire.Unknown("future", stdjson.RawMessage(`{"type":"future","x":1}`))
	require.NoError(t, err)
	require.Equal(t, `{"type":"future","x":1}`, string(out))
}
