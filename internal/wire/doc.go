// Package wire is the JSON codec of the SDK's wire types: every response,
// event and union is decoded and encoded here, with the JSON v2 engine
// (github.com/go-json-experiment/json, the prototype of encoding/json/v2).
//
// That engine is an implementation detail: no exported identifier of the
// SDK takes or returns one of its types. Each wire type has MarshalJSON and
// UnmarshalJSON methods, so encoding/json (v1) and v2 both encode it
// exactly as the API does; those methods call Marshal and Unmarshal here on
// a method-less defined type ("type plain T"), so that the struct tags do
// the work and the method does not recurse.
//
// The conventions every wire type follows:
//
//   - Wire names are declared once, in struct tags.
//   - Members this SDK does not know are kept in a field
//     `Extra map[string]json.RawMessage` tagged `json:",embed"`, and written
//     back when the value is marshalled, so that nothing a newer server sends
//     is lost.
//   - A nil slice or map encodes as null, an empty one as [] or {}, as
//     encoding/json does, so that null and [] survive a round trip.
//   - Unions are sealed interfaces; Union builds the decoder that picks the
//     variant by the object's "type" member, and each variant's MarshalJSON
//     writes that member first.
//   - Invalid UTF-8 and duplicate member names are errors, not silently
//     repaired: a value that decodes always encodes back to equal JSON.
package wire
