package reftest

import (
	"context"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
)

// A row with an empty Rule would pass on any error of its field, so
// RunBadInput refuses it before making the call.
func TestBadInputRowCheck(t *testing.T) {
	call := func(context.Context, *agentplatform.Client) error { return nil }
	for _, tc := range []struct {
		name string
		row  BadInput
		ok   bool
	}{
		{"complete", BadInput{Name: "n", Call: call, Field: "name", Rule: "at most 256 characters"}, true},
		{"no rule", BadInput{Name: "n", Call: call, Field: "name"}, false},
		{"blank rule", BadInput{Name: "n", Call: call, Field: "name", Rule: " "}, false},
		{"no field", BadInput{Name: "n", Call: call, Rule: "is required"}, false},
		{"no call", BadInput{Name: "n", Field: "name", Rule: "is required"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.row.check(); (err == nil) != tc.ok {
				t.Fatalf("check() = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
