package sessions

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Create creates a session: POST /v1/sessions. The agent is resolved and
// snapshotted now. With InitialEvents the session starts running at once
// (Status is StatusRunning in the answer); without, it starts idle. A
// budget refused by the API gives an error errors.Is matches with its
// BudgetRefusal.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Session, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/sessions")
	req.Body = &params
	req.Result = sessionCreated
	sess, err := pipeline.Do[Session](ctx, s.p, req, opts)
	if err != nil {
		return nil, budgetError(err)
	}
	return sess, nil
}

// Get returns one session, archived or not: GET /v1/sessions/{session_id}.
func (s *Service) Get(ctx context.Context, sessionID string, opts ...option.Option) (*Session, error) {
	req := newRequest(http.MethodGet, "/v1/sessions/{session_id}", sessionID)
	return pipeline.Do[Session](ctx, s.p, req, opts)
}

// List returns one page of sessions, newest first unless params.Order says
// otherwise: GET /v1/sessions. The page has a PrevPage cursor as well as
// NextPage.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Session], error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodGet, "/v1/sessions")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	q := &req.Query
	q.String("order", string(params.Order))
	q.String("agent_id", params.AgentID)
	q.Int("agent_version", params.AgentVersion)
	q.Time("created_at[gt]", params.CreatedAtGT)
	q.Time("created_at[gte]", params.CreatedAtGTE)
	q.Time("created_at[lt]", params.CreatedAtLT)
	q.Time("created_at[lte]", params.CreatedAtLTE)
	q.String("deployment_id", params.DeploymentID)
	q.String("memory_store_id", params.MemoryStoreID)
	for _, st := range params.Statuses {
		q.String("statuses", string(st))
	}
	q.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Session]](ctx, s.p, req, opts)
}

// All walks every session from params.Page on, fetching pages as the loop
// asks for them and stopping when it breaks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Session, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Session], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// Update changes a session (docs/managed-agents-wire.md 6.5 and 6.6): POST
// /v1/sessions/{session_id}. Archived and terminated sessions cannot be
// updated (409), nor can the agent of a running one. A budget refused by
// the API gives an error errors.Is matches with its BudgetRefusal.
func (s *Service) Update(ctx context.Context, sessionID string, params UpdateParams, opts ...option.Option) (*Session, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/sessions/{session_id}", sessionID)
	req.Body = &params
	sess, err := pipeline.Do[Session](ctx, s.p, req, opts)
	if err != nil {
		return nil, budgetError(err)
	}
	return sess, nil
}

// Archive archives a session, for good: POST
// /v1/sessions/{session_id}/archive. A running session is interrupted
// first. Archived sessions are read-only; archiving one again returns it
// unchanged.
func (s *Service) Archive(ctx context.Context, sessionID string, opts ...option.Option) (*Session, error) {
	req := newRequest(http.MethodPost, "/v1/sessions/{session_id}/archive", sessionID)
	return pipeline.Do[Session](ctx, s.p, req, opts)
}

// Delete deletes a session with its resources and events: DELETE
// /v1/sessions/{session_id}. A running session must be interrupted first
// (409). Memory stores and files it used are kept.
func (s *Service) Delete(ctx context.Context, sessionID string, opts ...option.Option) error {
	req := newRequest(http.MethodDelete, "/v1/sessions/{session_id}", sessionID)
	_, err := pipeline.Do[deleted](ctx, s.p, req, opts)
	return err
}
