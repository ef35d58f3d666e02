package sessions

import (
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// beta is the vendor-beta value these endpoints require; the SDK sends it.
const beta = "managed-agents-2026-04-01"

// Service calls the sessions endpoints. Get one from
// agentplatform.Client.Sessions.
//
// A session's resources and events have endpoints of their own under the
// session's path; their methods sit on the Resources and Events
// sub-services, mirroring the URL, so that each level keeps the short verbs
// (List, Add, Get, Update, Delete; Send, List, Stream).
type Service struct {
	p *pipeline.Pipeline

	Resources *ResourcesService // the files, repositories and memory stores of a session
	Events    *EventsService    // sending, listing and streaming a session's events
	Threads   *ThreadsService   // a session's threads, and each thread's events
}

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Sessions
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	events := &EventsService{p: p}
	return &Service{p: p, Resources: &ResourcesService{p: p}, Events: events, Threads: &ThreadsService{p: p, events: events}}
}

// ResourcesService calls the session resource endpoints. Get one from
// agentplatform.Client.Sessions.Resources.
type ResourcesService struct{ p *pipeline.Pipeline }

// newRequest starts a request that carries beta: every endpoint of this
// package requires it. A request on one session's path (get, update,
// archive, delete, its events and resources) names that session on its
// span, vendor.session.id.
func newRequest(method, route string, params ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, route, params...)
	req.Beta = beta
	if len(params) > 0 && strings.HasPrefix(route, sessionRoute) {
		req.SessionID = params[0]
	}
	return req
}

// sessionRoute is the route prefix of the calls that act on one session.
const sessionRoute = "/v1/sessions/{session_id}"
