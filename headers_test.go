package agentplatform_test

import (
	"context"
	"net/http"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

func TestRequestHeaders(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	client := env.Client(t)

	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	get := last(t, env, "GET", "/v1/models")
	require.Regexp(t, `^agentplatform-go/`+regexp.QuoteMeta(agentplatform.Version)+` \(go1\.\d+.*; \w+/\w+\)$`, get.Header.Get("User-Agent"))
	require.Equal(t, "application/json", get.Header.Get("Accept"))
	require.Equal(t, "2023-06-01", get.Header.Get("vendor-version"))
	require.Empty(t, get.Header.Values("Content-Type"), "no body, no content type")
	require.Empty(t, get.Header.Values("vendor-beta"), "models need no beta value")
	require.Empty(t, get.Header.Values("Idempotency-Key"))
	require.Empty(t, get.Body)

	_, err = client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "h"})
	require.NoError(t, err)
	post := last(t, env, "POST", "/v1/tunnels")
	require.Equal(t, "application/json", post.Header.Get("Content-Type"))
	require.Equal(t, "mcp-tunnels-2026-06-22", post.Header.Get("vendor-beta"))
	require.Len(t, post.Header.Get("Idempotency-Key"), 26)
	require.JSONEq(t, `{"display_name":"h"}`, string(post.Body))

	// A body with nothing set is an empty object, never null or chunked noise.
	_, err = client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	require.JSONEq(t, `{}`, string(last(t, env, "POST", "/v1/tunnels").Body))

	// Archive sends no body.
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	_, err = client.Tunnels.Archive(ctx, tn.ID)
	require.NoError(t, err)
	archive := last(t, env, "POST", "/v1/tunnels/"+tn.ID+"/archive")
	require.Empty(t, archive.Body)
	require.Empty(t, archive.Header.Values("Content-Type"))
}

func TestClientLevelResponseIntoAndInsecureHTTP(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	var resp *http.Response
	_, err := env.Client(t, option.WithResponseInto(&resp)).Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	var sent atomic.Int32
	fake := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		return &http.Response{StatusCode: 404, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	client, err := agentplatform.NewClient(option.WithBaseURL("http://api.example.com"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: fake}), option.WithInsecureHTTP())
	require.NoError(t, err)
	defer client.Close()
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorContains(t, err, "404")
	require.EqualValues(t, 1, sent.Load())
}
