package messages_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

var batchStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// batchEnv is a reference server on a manual clock and its client.
func batchEnv(t *testing.T, opts ...option.Option) (*reftest.Env, *refserver.ManualClock, *agentplatform.Client) {
	t.Helper()
	clock := refserver.NewManualClock(batchStart)
	env := reftest.New(t, refserver.WithClock(clock))
	return env, clock, env.Client(t, opts...)
}

// batchOf makes one request per prompt, custom ids r0, r1, …
func batchOf(prompts ...string) messages.BatchCreateParams {
	var p messages.BatchCreateParams
	for i, text := range prompts {
		p.Requests = append(p.Requests, messages.BatchRequest{CustomID: "r" + strconv.Itoa(i), Params: prompt(text)})
	}
	return p
}

// results reads a batch's results into a map by custom id.
func results(t *testing.T, c *agentplatform.Client, id string) map[string]messages.BatchResult {
	t.Helper()
	out := map[string]messages.BatchResult{}
	for r, err := range c.Messages.Batches.Results(ctx, id) {
		require.NoError(t, err)
		out[r.RequestCustomID()] = r
	}
	return out
}

func TestBatchLifecycle(t *testing.T) {
	env, clock, c := batchEnv(t)
	b, err := c.Messages.Batches.Create(ctx, batchOf("Hello", "[[refserver:say fixed]]", "[[refserver:error api_error]]"))
	require.NoError(t, err)
	require.Regexp(t, `^msgbatch_`, b.ID)
	require.Equal(t, messages.BatchInProgress, b.ProcessingStatus)
	require.Equal(t, messages.BatchRequestCounts{Processing: 3}, b.RequestCounts)
	require.Equal(t, batchStart, b.CreatedAt)
	require.Equal(t, batchStart.Add(24*time.Hour), b.ExpiresAt)
	require.True(t, b.EndedAt.IsZero())
	require.Empty(t, b.ResultsURL)

	// Results and Delete need an ended batch.
	err = reftest.FirstErr(c.Messages.Batches.Results(ctx, b.ID))
	reftest.RequireInvalid(t, err, "has not ended")
	_, err = c.Messages.Batches.Delete(ctx, b.ID)
	reftest.RequireInvalid(t, err, "has not ended")

	// Each request takes 100ms of the server's clock.
	clock.Advance(150 * time.Millisecond)
	got, err := c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchRequestCounts{Processing: 2, Succeeded: 1}, got.RequestCounts)

	clock.Advance(time.Second)
	got, err = c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchEnded, got.ProcessingStatus)
	require.Equal(t, messages.BatchRequestCounts{Succeeded: 2, Errored: 1}, got.RequestCounts)
	require.Equal(t, batchStart.Add(300*time.Millisecond), got.EndedAt)
	require.Equal(t, env.URL+"/v1/messages/batches/"+b.ID+"/results", got.ResultsURL)

	rs := results(t, c, b.ID)
	require.Len(t, rs, 3)
	want, err := c.Messages.Create(ctx, prompt("Hello"))
	require.NoError(t, err)
	ok := rs["r0"].(messages.BatchSucceeded).Message
	require.Equal(t, want.Text(), ok.Text())
	require.Equal(t, want.Usage, ok.Usage)
	fixed := rs["r1"].(messages.BatchSucceeded).Message
	require.Equal(t, "fixed", fixed.Text())
	require.Equal(t, messages.BatchError{Type: apierror.TypeAPI, Message: rs["r2"].(messages.BatchErrored).Error.Message},
		rs["r2"].(messages.BatchErrored).Error)

	// List and All see it; Delete removes it.
	page, err := c.Messages.Batches.List(ctx, messages.BatchListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, b.ID, page.Data[0].ID)
	require.Equal(t, messages.BatchEnded, page.Data[0].ProcessingStatus)

	del, err := c.Messages.Batches.Delete(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.DeletedBatch{ID: b.ID, Type: "message_batch_deleted"}, *del)
	_, err = c.Messages.Batches.Get(ctx, b.ID)
	reftest.RequireNotFound(t, err, b.ID)
}

func TestBatchListPagesNewestFirst(t *testing.T) {
	_, _, c := batchEnv(t)
	var ids []string
	for range 5 {
		b, err := c.Messages.Batches.Create(ctx, batchOf("Hi"))
		require.NoError(t, err)
		ids = append([]string{b.ID}, ids...)
	}
	page, err := c.Messages.Batches.List(ctx, messages.BatchListParams{Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []string{ids[0], ids[1]}, []string{page.Data[0].ID, page.Data[1].ID})
	require.True(t, page.HasMore)
	require.Equal(t, ids[1], page.LastID)

	var all []string
	for b, err := range c.Messages.Batches.All(ctx, messages.BatchListParams{Limit: 2}) {
		require.NoError(t, err)
		all = append(all, b.ID)
	}
	require.Equal(t, ids, all)
}

// A request with a delay directive takes that long on the server's clock,
// so slow batches need no waiting.
const hourDelay = "[[refserver:delay 3600000]] slow"

func TestBatchCancel(t *testing.T) {
	_, clock, c := batchEnv(t)
	b, err := c.Messages.Batches.Create(ctx, batchOf(hourDelay, hourDelay, hourDelay))
	require.NoError(t, err)

	clock.Advance(30 * time.Minute) // the first request is in flight
	got, err := c.Messages.Batches.Cancel(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchCanceling, got.ProcessingStatus)
	require.Equal(t, batchStart.Add(30*time.Minute), got.CancelInitiatedAt)

	// Canceling again changes nothing.
	again, err := c.Messages.Batches.Cancel(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, got.CancelInitiatedAt, again.CancelInitiatedAt)

	clock.Advance(time.Hour) // the request in flight finishes; the rest are canceled
	got, err = c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchEnded, got.ProcessingStatus)
	require.Equal(t, messages.BatchRequestCounts{Succeeded: 1, Canceled: 2}, got.RequestCounts)
	require.Equal(t, batchStart.Add(time.Hour+100*time.Millisecond), got.EndedAt)

	rs := results(t, c, b.ID)
	require.IsType(t, messages.BatchSucceeded{}, rs["r0"])
	require.Equal(t, messages.BatchCanceled{CustomID: "r1"}, rs["r1"])
	require.Equal(t, messages.BatchCanceled{CustomID: "r2"}, rs["r2"])
}

func TestBatchExpires(t *testing.T) {
	_, clock, c := batchEnv(t)
	prompts := make([]string, 25) // 25 requests of an hour each: the last two miss the 24 hours
	for i := range prompts {
		prompts[i] = hourDelay
	}
	b, err := c.Messages.Batches.Create(ctx, batchOf(prompts...))
	require.NoError(t, err)

	clock.Advance(23*time.Hour + 59*time.Minute)
	got, err := c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchInProgress, got.ProcessingStatus)

	clock.Advance(2 * time.Minute)
	got, err = c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, messages.BatchEnded, got.ProcessingStatus)
	require.Equal(t, messages.BatchRequestCounts{Succeeded: 23, Expired: 2}, got.RequestCounts)
	require.Equal(t, got.ExpiresAt, got.EndedAt)
	rs := results(t, c, b.ID)
	require.Equal(t, messages.BatchExpired{CustomID: "r24"}, rs["r24"])
}

// A request the platform finds invalid is an errored result carrying the
// error Create would have returned.
func TestBatchInvalidRequestIsErrored(t *testing.T) {
	_, clock, c := batchEnv(t)
	b, err := c.Messages.Batches.Create(ctx, batchOf("fine", "broken"),
		option.WithJSONSet("requests.1.params.temperature", 7))
	require.NoError(t, err)
	clock.Advance(time.Second)
	rs := results(t, c, b.ID)
	require.IsType(t, messages.BatchSucceeded{}, rs["r0"])
	e := rs["r1"].(messages.BatchErrored).Error
	require.Equal(t, apierror.TypeInvalidRequest, e.Type)
	require.Contains(t, e.Message, "temperature")

	_, err = c.Messages.Create(ctx, prompt("broken"), option.WithJSONSet("temperature", 7))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, apiErr.Message, e.Message)
}

func TestBatchServerChecksCustomIDs(t *testing.T) {
	env, _, c := batchEnv(t)
	_, err := c.Messages.Batches.Create(ctx, batchOf("a", "b"), option.WithJSONSet("requests.1.custom_id", "r0"))
	reftest.RequireInvalid(t, err, "custom_id must be unique")
	_, err = c.Messages.Batches.Create(ctx, batchOf("a"), option.WithJSONSet("requests.0.custom_id", "has space"))
	reftest.RequireInvalid(t, err, "requests.0.custom_id")
	require.Equal(t, 2, env.Count(http.MethodPost, "/v1/messages/batches"))
}

// Results are not bound by the response size limit, but each line is:
// a longer line ends Results with an error that says so.
func TestBatchResultLineBound(t *testing.T) {
	env, _, c := batchEnv(t)
	id, err := env.Server.FillMessageBatch(env.Seed.DefaultWorkspaceID, 3, "Hi")
	require.NoError(t, err)
	total, n := 0, 0
	for r, err := range c.Messages.Batches.Results(ctx, id, option.WithMaxResponseSize(512)) {
		require.NoError(t, err)
		line, err := json.Marshal(r)
		require.NoError(t, err)
		total += len(line)
		n++
	}
	require.Equal(t, 3, n)
	require.Greater(t, total, 512)

	defer messages.SetMaxResultLine(100)()
	var errs []error
	for _, err := range c.Messages.Batches.Results(ctx, id) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorContains(t, errs[0], "a result is longer than 100 bytes (MaxBatchResultLine)")
}

// The server checks the request count and each request's params itself,
// for clients that do not check them first.
func TestBatchServerChecksRequests(t *testing.T) {
	_, _, c := batchEnv(t)
	type req struct {
		CustomID string          `json:"custom_id"`
		Params   json.RawMessage `json:"params"`
	}
	many := make([]req, messages.MaxBatchRequests+1)
	for i := range many {
		many[i] = req{CustomID: "r" + strconv.Itoa(i), Params: json.RawMessage(`{}`)}
	}
	err := c.Execute(ctx, http.MethodPost, "/v1/messages/batches", map[string]any{"requests": many}, nil)
	reftest.RequireInvalid(t, err, "requests: must have at most 100000 requests, got 100001")

	err = c.Execute(ctx, http.MethodPost, "/v1/messages/batches", map[string]any{"requests": []req{{CustomID: "a", Params: json.RawMessage(`[1]`)}}}, nil)
	reftest.RequireInvalid(t, err, "requests.0.params: must be an object")
	err = c.Execute(ctx, http.MethodPost, "/v1/messages/batches", map[string]any{"requests": []req{}}, nil)
	reftest.RequireInvalid(t, err, "requests: must have at least 1 request")
}
