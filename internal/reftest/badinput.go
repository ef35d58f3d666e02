package reftest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
)

// Call is one SDK call of a table test.
type Call = func(context.Context, *agentplatform.Client) error

// BadInput is a call with an invalid parameter (issue 9's bad-input
// tables). Its error must name Field and contain Rule. Local means the SDK
// can know in advance, so it refuses the call before sending anything;
// otherwise only the server can tell, and it answers 400 once.
type BadInput struct {
	Name        string
	Call        Call
	Field, Rule string
	Local       bool
}

// RunBadInput runs each case as a subtest against env with client: a
// typed error matching apierror.ErrInvalidRequest that names the field and
// the rule, within 10 seconds, and nothing sent for a local failure.
// Tables declare their own type of BadInput so that rows may be
// positional, hence the type parameter.
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
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			env.Server.ResetRequests()
			err := tc.Call(ctx, client)
			require.NoError(t, ctx.Err(), "the call returned in time")
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
