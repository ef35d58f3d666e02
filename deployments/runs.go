package deployments

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Get returns one run: GET /v1/deployment_runs/{deployment_run_id}.
func (s *RunsService) Get(ctx context.Context, runID string, opts ...option.Option) (*Run, error) {
	req := newRequest(http.MethodGet, "/v1/deployment_runs/{deployment_run_id}", runID)
	return pipeline.Do[Run](ctx, s.p, req, opts)
}

// List returns one page of runs, newest first: GET /v1/deployment_runs.
// Runs of archived deployments are listed too.
func (s *RunsService) List(ctx context.Context, params RunListParams, opts ...option.Option) (*pagination.CursorPage[Run], error) {
	req := newRequest(http.MethodGet, "/v1/deployment_runs")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxRunListLimit); err != nil {
		return nil, err
	}
	q := &req.Query
	q.String("deployment_id", params.DeploymentID)
	q.Time("created_at[gt]", params.CreatedAtGT)
	q.Time("created_at[gte]", params.CreatedAtGTE)
	q.Time("created_at[lt]", params.CreatedAtLT)
	q.Time("created_at[lte]", params.CreatedAtLTE)
	if params.HasError != nil {
		// Query.Bool sends only true; false is a filter here, not the default.
		q.String("has_error", strconv.FormatBool(*params.HasError))
	}
	q.String("trigger_type", string(params.TriggerType))
	return pipeline.Do[pagination.CursorPage[Run]](ctx, s.p, req, opts)
}

// All walks every run from params.Page on, fetching pages as the loop asks
// for them.
func (s *RunsService) All(ctx context.Context, params RunListParams, opts ...option.Option) iter.Seq2[*Run, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Run], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}
