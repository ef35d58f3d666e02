package environments

import (
	"context"
	"iter"
	"net/http"
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// WorkService calls the work queue of self-hosted environments: the
// platform queues an item for each session of the environment that needs
// a machine, and the client's workers poll, acknowledge and heartbeat
// them. Get one from agentplatform.Client.Environments.Work.
//
// Workers authenticate with the environment's key, not an API key: pass
// it to each call with option.WithAPIKey(key), which sends it as
// "Authorization: Bearer <key>". Poll, Ack, Heartbeat and List accept
// only that key; Stop and Stats accept it or an API key; Get and Update
// take an API key.
type WorkService struct{ p *pipeline.Pipeline }

const (
	workRoute     = "/v1/environments/{environment_id}/work"
	workItemRoute = workRoute + "/{work_id}"
)

// request starts a call on the queue of environmentID, or on its item
// workID when given, whose span carries both ids.
func (s *WorkService) request(method, route, op, environmentID string, workID ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, route, append([]string{environmentID}, workID...)...)
	req.Beta = beta
	req.Op = op
	req.Annotate = func(span pipeline.Span) {
		span.SetAttributes(tracing.EnvironmentID.String(environmentID))
		if len(workID) > 0 {
			span.SetAttributes(tracing.WorkID.String(workID[0]))
		}
	}
	return req
}

// itemRequest is request on one work item, whose id is checked first: the
// queue's own routes (poll, stats) would answer a work id spelled as
// their name.
func (s *WorkService) itemRequest(method, suffix, op, environmentID, workID string) (*pipeline.Request, error) {
	if workID == "poll" || workID == "stats" {
		return nil, &apierror.ValidationError{Field: "work_id", Rule: "must be a work item id, not " + strconv.Quote(workID)}
	}
	return s.request(method, workItemRoute+suffix, op, environmentID, workID), nil
}

// Poll claims the oldest queued item of the environment: GET
// /v1/environments/{environment_id}/work/poll. It returns nil, nil when no
// item arrived within params.Block. A claimed item stays queued until Ack;
// not acknowledged within params.ReclaimOlderThan, it can be polled again.
// Takes the environment key.
func (s *WorkService) Poll(ctx context.Context, environmentID string, params PollParams, opts ...option.Option) (*Work, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := s.request(http.MethodGet, workRoute+"/poll", "environments.work.poll", environmentID)
	req.Query.Int("block_ms", int(params.Block/time.Millisecond))
	req.Query.Int("reclaim_older_than_ms", int(params.ReclaimOlderThan/time.Millisecond))
	if params.WorkerID != "" {
		opts = append([]option.Option{option.WithHeader("vendor-worker-id", params.WorkerID)}, opts...)
	}
	return s.maybeWork(ctx, req, opts)
}

// maybeWork sends req and decodes a work item, or nil for a body that is
// null or empty.
func (s *WorkService) maybeWork(ctx context.Context, req *pipeline.Request, opts []option.Option) (*Work, error) {
	var w *Work
	if err := pipeline.Into(ctx, s.p, req, &w, opts); err != nil {
		return nil, err
	}
	return w, nil
}

// Ack acknowledges a polled item, which moves it to starting and starts
// its lease (30 s until the first heartbeat): POST
// /v1/environments/{environment_id}/work/{work_id}/ack. An item that is not
// polled and queued fails with 409. Takes the environment key.
func (s *WorkService) Ack(ctx context.Context, environmentID, workID string, opts ...option.Option) (*Work, error) {
	req, err := s.itemRequest(http.MethodPost, "/ack", "environments.work.ack", environmentID, workID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Work](ctx, s.p, req, opts)
}

// Heartbeat extends the lease of an acknowledged item and moves it to
// active: POST /v1/environments/{environment_id}/work/{work_id}/heartbeat.
// A lease the worker no longer holds (another expected heartbeat, or
// expired and re-queued) fails with a *LeaseLostError, which matches
// ErrLeaseLost: stop working on the item. A stopping or stopped item
// answers with LeaseExtended false. Takes the environment key.
func (s *WorkService) Heartbeat(ctx context.Context, environmentID, workID string, params HeartbeatParams, opts ...option.Option) (*Heartbeat, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req, err := s.itemRequest(http.MethodPost, "/heartbeat", "environments.work.heartbeat", environmentID, workID)
	if err != nil {
		return nil, err
	}
	req.Query.Int("desired_ttl_seconds", int(params.DesiredTTL/time.Second))
	req.Query.String("expected_last_heartbeat", params.ExpectedLastHeartbeat)
	hb, err := pipeline.Do[Heartbeat](ctx, s.p, req, opts)
	if err != nil {
		return nil, leaseLost(err)
	}
	return hb, nil
}

// Stop stops an item: POST
// /v1/environments/{environment_id}/work/{work_id}/stop. A queued item
// stops at once; a claimed one goes to stopping (its worker sees
// LeaseExtended false) unless params.Force stops it at once. Stopping a
// stopped item fails with 409. A success without a body returns nil, nil.
// Takes the environment key or an API key.
func (s *WorkService) Stop(ctx context.Context, environmentID, workID string, params StopParams, opts ...option.Option) (*Work, error) {
	req, err := s.itemRequest(http.MethodPost, "/stop", "environments.work.stop", environmentID, workID)
	if err != nil {
		return nil, err
	}
	req.Body = &params
	return s.maybeWork(ctx, req, opts)
}

// List returns one page of the environment's items, newest first, in
// every state: GET /v1/environments/{environment_id}/work. Takes the
// environment key.
func (s *WorkService) List(ctx context.Context, environmentID string, params WorkListParams, opts ...option.Option) (*pagination.CursorPage[Work], error) {
	req := s.request(http.MethodGet, workRoute, "environments.work.list", environmentID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxWorkListLimit); err != nil {
		return nil, err
	}
	return pipeline.Do[pagination.CursorPage[Work]](ctx, s.p, req, opts)
}

// All walks every item of the environment from params.Page on, fetching
// pages as the loop asks.
func (s *WorkService) All(ctx context.Context, environmentID string, params WorkListParams, opts ...option.Option) iter.Seq2[*Work, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Work], error) {
		p := params
		p.Page = page
		return s.List(ctx, environmentID, p, opts...)
	})
}

// Stats counts the environment's queue: GET
// /v1/environments/{environment_id}/work/stats. Takes the environment key
// or an API key.
func (s *WorkService) Stats(ctx context.Context, environmentID string, opts ...option.Option) (*QueueStats, error) {
	req := s.request(http.MethodGet, workRoute+"/stats", "environments.work.stats", environmentID)
	return pipeline.Do[QueueStats](ctx, s.p, req, opts)
}

// Get returns one item: GET
// /v1/environments/{environment_id}/work/{work_id}. Takes an API key.
func (s *WorkService) Get(ctx context.Context, environmentID, workID string, opts ...option.Option) (*Work, error) {
	req, err := s.itemRequest(http.MethodGet, "", "environments.work.retrieve", environmentID, workID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Work](ctx, s.p, req, opts)
}

// Update patches an item's metadata: POST
// /v1/environments/{environment_id}/work/{work_id}. Takes an API key.
func (s *WorkService) Update(ctx context.Context, environmentID, workID string, params WorkUpdateParams, opts ...option.Option) (*Work, error) {
	if err := check.MetadataPatch(params.Metadata); err != nil {
		return nil, err
	}
	req, err := s.itemRequest(http.MethodPost, "", "environments.work.update", environmentID, workID)
	if err != nil {
		return nil, err
	}
	req.Body = &params
	return pipeline.Do[Work](ctx, s.p, req, opts)
}
