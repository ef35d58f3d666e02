package agentplatform_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// TestVersionOption: the version chosen for a client, or for one call,
// is the vendor-version header on the wire (read from the server's request
// log, whatever the server answers), a call's choice does not outlive the
// call, "" sends no header, and a value that is not a date is refused
// before anything is sent.
func TestVersionOption(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	header := func(opts ...option.Option) []string {
		t.Helper()
		_, _ = env.Client(t).Models.List(ctx, models.ListParams{}, opts...) // the header is checked, not the answer
		return last(t, env, "GET", "/v1/models").Header.Values("vendor-version")
	}
	require.Equal(t, []string{option.Version20230601}, header(), "the default")
	require.Equal(t, []string{option.Version20261021}, header(option.WithVersion(option.Version20261021)), "per call")
	require.Equal(t, []string{option.Version20230601}, header(), "the call's version did not leak")
	require.Empty(t, header(option.WithVersion("")), `"" sends no header`)

	current := env.Client(t, option.WithVersion(option.Version20261021))
	_, _ = current.Models.List(ctx, models.ListParams{})
	require.Equal(t, option.Version20261021, last(t, env, "GET", "/v1/models").Header.Get("vendor-version"), "per client")
	_, _ = current.Models.List(ctx, models.ListParams{}, option.WithVersion(option.Version20230601))
	require.Equal(t, option.Version20230601, last(t, env, "GET", "/v1/models").Header.Get("vendor-version"), "per call on that client")
	_, _ = current.Models.List(ctx, models.ListParams{})
	require.Equal(t, option.Version20261021, last(t, env, "GET", "/v1/models").Header.Get("vendor-version"), "back to the client's")
	// A later version the SDK does not know is sent as given.
	_, _ = current.Models.List(ctx, models.ListParams{}, option.WithVersion("2027-01-01"))
	require.Equal(t, "2027-01-01", last(t, env, "GET", "/v1/models").Header.Get("vendor-version"))

	env.Server.ResetRequests()
	_, err := current.Models.List(ctx, models.ListParams{}, option.WithVersion("latest"))
	var v *apierror.ValidationError
	require.ErrorAs(t, err, &v)
	require.Equal(t, "vendor-version", v.Field)
	require.Equal(t, `must be a date, YYYY-MM-DD, such as 2026-10-21, got "latest"`, v.Rule)
	require.Empty(t, env.Server.Requests(), "nothing was sent")
}
