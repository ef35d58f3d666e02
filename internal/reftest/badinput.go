package reftest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
)

// Call is one SDK call of a table test.
type Call = func(context.Context, *agentplatform.Client) error

// BadInput is a call with an invalid parameter, one row of a package's
// bad-input table. Its error must name Field and contain Rule, which must
// not be empty: every string contains "", so an empty Rule would let any
// error on the field pass. Local means the SDK can know in advance, so it
// refuses the call before sending anything; otherwise only the server can
// tell, and it answers 400 once.
type BadInput struct {
	Name        string
	Call        Call
	Field, Rule string
	Local       bool
}

// check reports a row that could not fail: one without a Call, a Field or
// a Rule (require.Contains(msg, "") always holds).
func (b BadInput) check() error {
	switch {
	case b.Call == nil:
		return errors.New("the row has no call")
	case strings.TrimSpace(b.Field) == "":
		return errors.New("the row names no field")
	case strings.TrimSpace(b.Rule) == "":
		return fmt.Errorf("the row names no rule, so any error on %s would pass", b.Field)
	}
	return nil
}

// RunBadInput runs each case as a subtest against env with client: a
// typed error matching apierror.ErrInvalidRequest that names the field and
// the rule, and nothing sent for a local failure. A row that is not well
// formed (see BadInput.check) fails before its call is made. The call has
// no deadline of its own, so that a slow machine cannot fail a row: a call
// that hangs is caught by go test's -timeout. Tables declare their own type
// of BadInput so that rows may be positional, hence the type parameter.
func RunBadInput[C ~struct {
	Name        string
	Call        Call
	Field, Rule string
	Local       bool
}](t *testing.T, env *Env, client *agentplatform.Client, cases []C) {
	t.Helper()
	for _, c := range cases {
		tc := BadInput(c)
		t.Run(tc.Name, func(t *testing.T) {
			require.NoError(t, tc.check())
			env.Server.ResetRequests()
			err := tc.Call(t.Context(), client)
			sent := len(env.Server.Requests())
			require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			if tc.Local {
				var v *apierror.ValidationError
				require.ErrorAs(t, err, &v)
				require.Equal(t, tc.Field, v.Field, v.Error())
				require.Contains(t, v.Rule, tc.Rule)
				require.Zero(t, sent, "nothing is sent")
				return
			}
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
			require.True(t, strings.HasPrefix(apiErr.Message, tc.Field+": "), apiErr.Message)
			require.Contains(t, apiErr.Message, tc.Rule)
			require.Equal(t, 1, sent, "sent once, not retried")
		})
	}
}

// FirstErr returns the error of an iterator's first item: how a table
// calls an All method.
func FirstErr[T any](seq func(func(T, error) bool)) error {
	for _, err := range seq {
		return err
	}
	return nil
}
