package refserver_test

import "testing"

// The fake model's JSON output is valid for the schema's string formats
// and minItems, so that it decodes into the types they stand for.
func TestMessagesFormatSynthesis(t *testing.T) {
	e := newEnv(t)
	schema := `{"type":"object","additionalProperties":false,"required":["at","day","id","mail","host","link","v4","v6","span","clock","plain","one","two"],"properties":{` +
		`"at":{"type":"string","format":"date-time"},"day":{"type":"string","format":"date"},"id":{"type":"string","format":"uuid"},` +
		`"mail":{"type":"string","format":"email"},"host":{"type":"string","format":"hostname"},"link":{"type":"string","format":"uri"},` +
		`"v4":{"type":"string","format":"ipv4"},"v6":{"type":"string","format":"ipv6"},"span":{"type":"string","format":"duration"},` +
		`"clock":{"type":"string","format":"time"},"plain":{"type":"string","format":"color"},` +
		`"one":{"type":"array","minItems":1,"items":{"type":"integer"}},"two":{"type":"array","minItems":2,"items":{"type":"object","required":["x"],"properties":{"x":{"type":"boolean"}}}}}}`
	m := e.message(t, base(`"output_config":{"format":{"type":"json_schema","schema":`+schema+`}}`))
	want := `{"at":"1970-01-01T00:00:00Z","clock":"00:00:00Z","day":"1970-01-01","host":"example.com","id":"00000000-0000-4000-8000-000000000000",` +
		`"link":"https://example.com/","mail":"user@example.com","one":[0],"plain":"example","span":"P1D","two":[{"x":false},{"x":false}],"v4":"192.0.2.1","v6":"2001:db8::1"}`
	if got := contentOf(m)[0]["text"]; got != want {
		t.Fatalf("format text\n got %s\nwant %s", got, want)
	}
}
