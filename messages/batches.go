package messages

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// BatchesService calls the Message Batches endpoints
// (docs/message-batches-wire.md): many Messages requests processed
// asynchronously, at a lower price, within 24 hours. Get one from
// agentplatform.Client.Messages.Batches.
//
// Each call has one CLIENT span, vendor.messages.batches.<verb>, with the
// batch's id (vendor.message_batch.id); the requests inside a batch have
// no spans of their own on the client.
type BatchesService struct {
	p *pipeline.Pipeline
}

const (
	batchesRoute = "/v1/messages/batches"
	batchRoute   = batchesRoute + "/{message_batch_id}"
	maxBatchList = 1000
)

// Create creates a batch: POST /v1/messages/batches. params is checked
// locally first against the platform's limits, each request as Create
// checks it, by the rules of the API version the call is sent with; a
// broken rule returns an *apierror.ValidationError naming the request and
// field, and nothing is sent.
//
// Create is retried only when the request surely did not reach the
// platform: after a 429, or when no connection could be made. After a
// timeout, a dropped connection or a 5xx the batch may have been created,
// and a second attempt could create another: the error is returned, and
// List shows whether it exists.
func (s *BatchesService) Create(ctx context.Context, params BatchCreateParams, opts ...option.Option) (*Batch, error) {
	req := pipeline.NewRequest(http.MethodPost, batchesRoute)
	req.Op = "messages.batches.create"
	req.Body = &batchBody{p: &params} // checked and encoded by the pipeline, with the call's version
	req.Beta = params.betas()
	req.RetryOnlyUnsent = true
	req.Result = batchResultAttr
	return pipeline.Do[Batch](ctx, s.p, req, opts)
}

// Get returns a batch: GET /v1/messages/batches/{message_batch_id}. Poll
// it until ProcessingStatus is BatchEnded, then read Results.
func (s *BatchesService) Get(ctx context.Context, batchID string, opts ...option.Option) (*Batch, error) {
	req, err := batchRequest(http.MethodGet, batchRoute, "messages.batches.retrieve", batchID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Batch](ctx, s.p, req, opts)
}

// List returns one page of the workspace's batches, newest first: GET
// /v1/messages/batches.
func (s *BatchesService) List(ctx context.Context, params BatchListParams, opts ...option.Option) (*pagination.IDPage[Batch], error) {
	req := pipeline.NewRequest(http.MethodGet, batchesRoute)
	req.Op = "messages.batches.list"
	if err := req.Query.IDPage(params.AfterID, params.BeforeID, params.Limit, maxBatchList); err != nil {
		return nil, err
	}
	return pipeline.Do[pagination.IDPage[Batch]](ctx, s.p, req, opts)
}

// All walks the workspace's batches, newest first, from params' position,
// fetching pages as the loop asks.
func (s *BatchesService) All(ctx context.Context, params BatchListParams, opts ...option.Option) iter.Seq2[*Batch, error] {
	return pagination.ByID(params.AfterID, params.BeforeID, func(after, before string) (*pagination.IDPage[Batch], error) {
		p := params
		p.AfterID, p.BeforeID = after, before
		return s.List(ctx, p, opts...)
	})
}

// Cancel asks the platform to stop a batch: POST
// /v1/messages/batches/{message_batch_id}/cancel. The batch is canceling
// until the requests in flight finish, then ends; the requests it did not
// run have BatchCanceled results.
func (s *BatchesService) Cancel(ctx context.Context, batchID string, opts ...option.Option) (*Batch, error) {
	req, err := batchRequest(http.MethodPost, batchRoute+"/cancel", "messages.batches.cancel", batchID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Batch](ctx, s.p, req, opts)
}

// Delete deletes an ended batch and its results: DELETE
// /v1/messages/batches/{message_batch_id}. A batch still processing must
// be canceled first.
func (s *BatchesService) Delete(ctx context.Context, batchID string, opts ...option.Option) (*DeletedBatch, error) {
	req, err := batchRequest(http.MethodDelete, batchRoute, "messages.batches.delete", batchID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[DeletedBatch](ctx, s.p, req, opts)
}

// MaxBatchResultLine bounds one line of a batch's results, one request's
// result: a longer line ends Results with an error.
const MaxBatchResultLine = 32 << 20

// maxResultLine is MaxBatchResultLine, lowered by tests.
var maxResultLine = MaxBatchResultLine

// Results reads an ended batch's results, one per request: GET
// /v1/messages/batches/{message_batch_id}/results. The results arrive as
// JSON Lines and are decoded one line at a time as the loop asks, so a
// batch of any size is read in little memory: the body is neither held
// whole nor bound by option.WithMaxResponseSize, but each line is at most
// MaxBatchResultLine bytes. Retries cover only getting the response's
// headers. The results of a batch that has not ended are a 400.
//
// A failure is yielded once, as the last pair. Breaking out of the loop
// closes the response.
func (s *BatchesService) Results(ctx context.Context, batchID string, opts ...option.Option) iter.Seq2[BatchResult, error] {
	return func(yield func(BatchResult, error) bool) {
		req, err := batchRequest(http.MethodGet, batchRoute+"/results", "messages.batches.results", batchID)
		if err != nil {
			yield(nil, err)
			return
		}
		resp, err := pipeline.Download(ctx, s.p, req, opts)
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, min(64<<10, maxResultLine)), maxResultLine)
		for n := 1; sc.Scan(); n++ {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			r, err := decodeBatchResult(line)
			if err != nil {
				yield(nil, fmt.Errorf("agentplatform: message batch %s results, line %d: %w", batchID, n, err))
				return
			}
			if !yield(r, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("a result is longer than %d bytes (MaxBatchResultLine): %w", maxResultLine, err)
			}
			yield(nil, fmt.Errorf("agentplatform: message batch %s results: %w", batchID, err))
		}
	}
}

// batchRequest starts the request of a call on one batch, whose id is
// checked first.
func batchRequest(method, route, op, batchID string) (*pipeline.Request, error) {
	if batchID != "" && !strings.HasPrefix(batchID, "msgbatch_") {
		return nil, &apierror.ValidationError{Field: "message_batch_id", Rule: "must be a message batch id (`msgbatch_…`)"}
	}
	req := pipeline.NewRequest(method, route, batchID)
	req.Op = op
	req.Annotate = func(span pipeline.Span) { span.SetAttributes(attr.BatchID.String(batchID)) }
	return req, nil
}

// batchResultAttr records the id of the batch Create made.
func batchResultAttr(span pipeline.Span, out any) {
	span.SetAttributes(attr.BatchID.String(out.(*Batch).ID))
}
