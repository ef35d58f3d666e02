package sessions

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// EventsService calls the event endpoints of a session
// (docs/session-events-wire.md 2): Send, List, All and Stream. Get one from
// agentplatform.Client.Sessions.Events.
type EventsService struct{ p *pipeline.Pipeline }

// Limits of docs/session-events-wire.md 10.
const (
	maxEventListLimit = 1000
	maxEventDeltas    = 100
)

// SendParams is the body of Send.
type SendParams struct {
	// Events are sent in order, 1 to 50 of them: UserMessageParam,
	// InterruptParam, ToolConfirmationParam, CustomToolResultParam,
	// ToolResultParam, DefineOutcomeParam, SystemMessageParam. A
	// SystemMessageParam must come last, right after the user message or
	// tool result it accompanies.
	Events []EventParam `json:"events"`
}

func (p *SendParams) validate() error {
	if len(p.Events) == 0 {
		return &apierror.ValidationError{Field: "events", Rule: "must have at least 1 item"}
	}
	if err := atMost("events", len(p.Events), maxEvents); err != nil {
		return err
	}
	return validateEvents("events", p.Events, true)
}

// Send sends events to a session (docs/session-events-wire.md 2.1): POST
// /v1/sessions/{session_id}/events. It returns the accepted events as
// recorded, in order, with their ids. The batch is atomic: the first
// refused event fails the request and none is recorded. The agent's answer
// arrives on the stream, not here.
//
// Parameters that break a documented rule are refused locally and nothing
// is sent. State conflicts (a session archived or terminated, a tool call
// already answered) are 409; the platform's budget cap is 400.
func (s *EventsService) Send(ctx context.Context, sessionID string, params SendParams, opts ...option.Option) ([]Event, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/sessions/{session_id}/events", sessionID)
	req.Body = &params
	req.ThreadID = threadOf(params.Events)
	req.Result = eventsSent
	page, err := pipeline.Do[eventPage](ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	return page.Data, nil
}

// EventListParams selects a page of a session's history. Zero fields do not
// filter.
type EventListParams struct {
	// CreatedAtGT, CreatedAtGTE, CreatedAtLT and CreatedAtLTE bound the
	// events' ProcessedAt (GT and LT exclusive, GTE and LTE inclusive).
	CreatedAtGT, CreatedAtGTE, CreatedAtLT, CreatedAtLTE time.Time
	// Types keeps events of any of these types; a type the server does not
	// know matches nothing.
	Types []EventType
	// Order is OrderAsc (oldest first, the default for events) or
	// OrderDesc.
	Order Order
	// Limit is 1 to 1000; 0 means 1000.
	Limit int
	// Page is a cursor from a previous page's NextPage, bound to the
	// Order, Types and CreatedAt window it was issued for.
	Page string
}

func (p *EventListParams) validate() error {
	for _, t := range p.Types {
		if t == "" {
			return &apierror.ValidationError{Field: "types", Rule: "must not be empty"}
		}
	}
	return nil
}

// List returns one page of a session's recorded events: GET
// /v1/sessions/{session_id}/events. The history holds what the session's
// stream delivers, without previews; archived and terminated sessions can
// be listed. Every item is a PersistedEvent.
func (s *EventsService) List(ctx context.Context, sessionID string, params EventListParams, opts ...option.Option) (*pagination.CursorPage[Event], error) {
	return s.list(ctx, streamTarget{sessionID: sessionID}, params, opts)
}

// list is one page of t's history: a session's events or a thread's.
func (s *EventsService) list(ctx context.Context, t streamTarget, params EventListParams, opts []option.Option) (*pagination.CursorPage[Event], error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := t.listRequest()
	if err := req.Query.CursorPage(params.Page, params.Limit, maxEventListLimit); err != nil {
		return nil, err
	}
	q := &req.Query
	q.Time("created_at[gt]", params.CreatedAtGT)
	q.Time("created_at[gte]", params.CreatedAtGTE)
	q.Time("created_at[lt]", params.CreatedAtLT)
	q.Time("created_at[lte]", params.CreatedAtLTE)
	q.Strings("types", typeStrings(params.Types))
	q.String("order", string(params.Order))
	page, err := pipeline.Do[eventPage](ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	return &pagination.CursorPage[Event]{Data: page.Data, NextPage: page.NextPage}, nil
}

// All walks a session's history from params.Page on, fetching pages as the
// loop asks for them and stopping when it breaks.
func (s *EventsService) All(ctx context.Context, sessionID string, params EventListParams, opts ...option.Option) iter.Seq2[Event, error] {
	return s.all(ctx, streamTarget{sessionID: sessionID}, params, opts)
}

// all walks t's history, as All does a session's.
func (s *EventsService) all(ctx context.Context, t streamTarget, params EventListParams, opts []option.Option) iter.Seq2[Event, error] {
	pages := pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Event], error) {
		p := params
		p.Page = page
		return s.list(ctx, t, p, opts)
	})
	return func(yield func(Event, error) bool) {
		for ev, err := range pages {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(*ev, nil) {
				return
			}
		}
	}
}

// eventPage is the answer of Send ({"data": [...]}) and of List (with
// next_page). Each item is decoded into its event type while the pipeline
// decodes the body, so that an item the SDK cannot read fails the call
// like any other malformed body.
type eventPage struct {
	Data     []Event `json:"data"`
	NextPage string  `json:"next_page,omitzero"`
}

type plainEventPage eventPage

func (p *eventPage) UnmarshalJSON(b []byte) error {
	return wire.Unmarshal(b, (*plainEventPage)(p), unions)
}
