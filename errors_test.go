package agentplatform_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

func TestAPIErrorCarriesEverything(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	var resp *http.Response
	_, err := env.Client(t).Models.Get(context.Background(), "vendor-nonexistent", option.WithResponseInto(&resp))

	var apiErr *apierror.Error
	require.ErrorAs(t, fmt.Errorf("wrapped twice: %w", fmt.Errorf("once: %w", err)), &apiErr)
	require.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	require.Equal(t, apierror.TypeNotFound, apiErr.Type)
	require.Equal(t, "Model `vendor-nonexistent` not found.", apiErr.Message)
	require.Equal(t, resp.Header.Get("request-id"), apiErr.RequestID)
	require.Regexp(t, `^req_`, apiErr.RequestID)
	require.Equal(t, "GET", apiErr.Method)
	require.Equal(t, "/v1/models/vendor-nonexistent", apiErr.Path)
	require.JSONEq(t, fmt.Sprintf(`{"type":"error","error":{"type":"not_found_error","message":"Model %s not found."},"request_id":%q}`,
		"`vendor-nonexistent`", apiErr.RequestID), string(apiErr.Body))
	require.Equal(t, "agentplatform: GET /v1/models/vendor-nonexistent: 404 not_found_error: Model `vendor-nonexistent` not found. (request_id "+apiErr.RequestID+")", err.Error())
	require.ErrorIs(t, err, apierror.ErrNotFound)
	require.NotErrorIs(t, err, apierror.ErrAuthentication)
}

func TestConvenienceChecks(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t, option.WithMaxRetries(0))
	ctx := context.Background()
	cases := []struct {
		status   int
		sentinel error
	}{
		{400, apierror.ErrInvalidRequest},
		{401, apierror.ErrAuthentication},
		{403, apierror.ErrPermission},
		{404, apierror.ErrNotFound},
		{429, apierror.ErrRateLimited},
		{529, apierror.ErrOverloaded},
		{500, apierror.ErrServer},
	}
	all := []error{apierror.ErrInvalidRequest, apierror.ErrAuthentication, apierror.ErrPermission,
		apierror.ErrNotFound, apierror.ErrRateLimited, apierror.ErrOverloaded, apierror.ErrServer}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: tc.status})
			_, err := client.Models.List(ctx, models.ListParams{})
			for _, s := range all {
				require.Equal(t, s == tc.sentinel, errors.Is(err, s), "errors.Is(%d, %v)", tc.status, s)
			}
		})
	}

	// A local refusal is an invalid request too, and is not an *apierror.Error.
	_, err := client.Models.List(ctx, models.ListParams{Limit: 1001})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	var apiErr *apierror.Error
	require.False(t, errors.As(err, &apiErr))
}

func TestNonJSONErrorBodyStillGivesATypedError(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	page := "<html><body><h1>502 Bad Gateway</h1></body></html>"
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 502, Body: page,
		Header: http.Header{"Content-Type": {"text/html"}}, Times: 3})
	_, err := env.Client(t).Models.List(context.Background(), models.ListParams{})
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 502, apiErr.StatusCode)
	require.Equal(t, apierror.TypeAPI, apiErr.Type)
	require.Equal(t, page, string(apiErr.Body))
	require.Contains(t, apiErr.Message, "non-JSON")
	require.Regexp(t, `^req_`, apiErr.RequestID, "taken from the request-id header")
	require.NotContains(t, err.Error(), "<html>", "a proxy page is not quoted into the error string")
	require.ErrorIs(t, err, apierror.ErrServer)
}

func TestTransportErrorsAreWrapped(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t, option.WithMaxRetries(1))
	url := env.URL
	env.HTTP.Close() // nothing listens any more
	_, err := client.Models.List(context.Background(), models.ListParams{}, option.WithBaseURL(url))
	require.Error(t, err)
	var opErr *net.OpError
	require.ErrorAs(t, err, &opErr, "the net error is reachable with errors.As")
	require.NotContains(t, err.Error(), env.Seed.APIKey)
}

func TestErrorStringsNeverContainCredentials(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	const canary = "sk-vendor-api03-CANARY-never-print-me"
	client := env.Client(t, option.WithAPIKey(canary), option.WithMaxRetries(0))
	ctx := context.Background()

	_, err := client.Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.NotContains(t, err.Error(), canary)
	require.NotContains(t, string(apiErr.Body), canary)
	require.NotContains(t, fmt.Sprintf("%+v %#v", apiErr, apiErr), canary)

	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Drop: true})
	_, err = client.Models.List(ctx, models.ListParams{})
	require.Error(t, err)
	require.NotContains(t, err.Error(), canary)

	_, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: ""})
	require.NotContains(t, err.Error(), canary)

	// The client and its options print no secret either.
	require.NotContains(t, fmt.Sprintf("%v %+v %#v", client, *client, client.Models), canary)
	cfgClient, err := agentplatform.NewClient(option.WithAPIKey(canary))
	require.NoError(t, err)
	defer cfgClient.Close()
	require.NotContains(t, fmt.Sprintf("%+v", *cfgClient), canary)
}

func TestEmptyAndEscapedPathParameters(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	before := len(env.Server.Requests())
	_, err := client.Models.Get(ctx, "")
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "model_id", verr.Field)
	require.Equal(t, "agentplatform: invalid parameter model_id: must not be empty", err.Error())
	require.Len(t, env.Server.Requests(), before, "nothing is sent")

	_, err = client.Models.Get(ctx, "a/b?c")
	require.ErrorIs(t, err, apierror.ErrNotFound)
	got := env.Server.Requests()[len(env.Server.Requests())-1]
	require.Equal(t, "/v1/models/a/b?c", got.Path, "the server decodes the escaped segment")
	require.Empty(t, got.RawQuery, "the ? travelled escaped, inside the segment")
}
