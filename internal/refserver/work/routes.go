package work

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Paths of the family's routes.
const (
	PathWork = "/v1/environments/{environment_id}/work"
	pathItem = PathWork + "/{work_id}"
)

// Routes are the family's endpoints.
func (s *Service) Routes() []kit.Route {
	b := kit.ManagedAgentsBetas
	return []kit.Route{
		{Method: http.MethodGet, Path: PathWork + "/poll", Op: "environments.work.poll", Betas: b, Handle: s.poll},
		{Method: http.MethodPost, Path: pathItem + "/ack", Op: "environments.work.ack", Betas: b, Handle: s.ack},
		{Method: http.MethodPost, Path: pathItem + "/heartbeat", Op: "environments.work.heartbeat", Betas: b, Handle: s.heartbeat},
		{Method: http.MethodPost, Path: pathItem + "/stop", Op: "environments.work.stop", Betas: b, Handle: s.stop},
		{Method: http.MethodGet, Path: PathWork, Op: "environments.work.list", Betas: b, Handle: s.list},
		{Method: http.MethodGet, Path: PathWork + "/stats", Op: "environments.work.stats", Betas: b, Handle: s.stats},
		{Method: http.MethodGet, Path: pathItem, Op: "environments.work.retrieve", Betas: b, Handle: s.get},
		{Method: http.MethodPost, Path: pathItem, Op: "environments.work.update", Betas: b, Handle: s.update},
	}
}

// environmentCaller is a caller that is an environment key (the identity
// family's Principal is one).
type environmentCaller interface{ EnvironmentID() string }

// callerEnvironment is the environment of the request's environment key;
// "" for any other credential.
func callerEnvironment(c *kit.Call) string {
	if ec, ok := c.Caller.(environmentCaller); ok {
		return ec.EnvironmentID()
	}
	return ""
}

// requireEnvironmentKey is the rule of poll, ack, heartbeat and list:
// workers only. (That an environment key names its own environment is
// checked by the server before any handler runs.)
func requireEnvironmentKey(c *kit.Call) error {
	if callerEnvironment(c) == "" {
		return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
			"This endpoint accepts only the environment key of environment `%s`.", c.R.PathValue("environment_id"))
	}
	return nil
}

// environmentLocked resolves the path's environment: 404 when unknown in
// the workspace, 400 when it is not self-hosted. It then sweeps expired
// leases, so that the handler sees a current queue.
func (s *Service) environmentLocked(c *kit.Call) (agents.EnvironmentInfo, error) {
	id := c.R.PathValue("environment_id")
	env, err := s.deps.EnvironmentLocked(c.WorkspaceID, id)
	if err != nil {
		return env, err
	}
	if !env.SelfHosted {
		return env, kit.InvalidRequest("environment `%s` is not self_hosted; only self-hosted environments have a work queue", id)
	}
	s.SweepLocked(c.Now())
	return env, nil
}

// itemLocked resolves the path's environment and work item: an unknown
// item, or another environment's, is 404.
func (s *Service) itemLocked(c *kit.Call) (*item, error) {
	env, err := s.environmentLocked(c)
	if err != nil {
		return nil, err
	}
	id := c.R.PathValue("work_id")
	it, ok := s.items[id]
	if !ok || it.environmentID != env.ID {
		return nil, kit.NotFound("Work item `%s` not found.", id)
	}
	return it, nil
}

func (s *Service) ack(c *kit.Call) error {
	if err := requireEnvironmentKey(c); err != nil {
		return err
	}
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.itemLocked(c)
	if err != nil {
		return err
	}
	if it.state != stateQueued || it.polledAt.IsZero() {
		return kit.StateConflict("work item `%s` is not awaiting acknowledgement", it.id)
	}
	now := c.Now()
	delete(s.pending, it.id)
	it.state, it.acknowledgedAt, it.polledAt = stateStarting, now, time.Time{}
	it.ttl, it.leaseExpires = defaultTTL, now.Add(defaultTTL)
	s.leased[it.id] = it
	return c.OK(it.view())
}

func (s *Service) heartbeat(c *kit.Call) error {
	if err := requireEnvironmentKey(c); err != nil {
		return err
	}
	q := c.R.URL.Query()
	ttlSeconds, err := kit.QueryInt(q, "desired_ttl_seconds", int(defaultTTL.Seconds()), 1, maxTTLSeconds)
	if err != nil {
		return err
	}
	expected, ok := kit.QueryValue(q, "expected_last_heartbeat")
	if !ok {
		return kit.InvalidField("expected_last_heartbeat", "is required (`%s` before the first heartbeat)", noHeartbeat)
	}
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.itemLocked(c)
	if err != nil {
		return err
	}
	switch it.state {
	case stateStopping, stateStopped:
		return c.OK(heartbeatJSON{Type: "work_heartbeat", LastHeartbeat: it.lastHeartbeat(), State: it.state,
			TTLSeconds: int(it.ttl.Seconds())})
	case stateStarting, stateActive:
		if expected == it.lastHeartbeat() {
			break
		}
		fallthrough
	default: // queued: the lease was lost
		return s.leaseMismatch(c, it)
	}
	now := c.Now()
	it.ttl = secondsOf(ttlSeconds)
	it.leaseExpires, it.heartbeatAt, it.beat = now.Add(it.ttl), now, it.newBeat(now)
	if it.state == stateStarting {
		it.state, it.startedAt = stateActive, now
	}
	return c.OK(heartbeatJSON{Type: "work_heartbeat", LastHeartbeat: it.beat, LeaseExtended: true,
		State: it.state, TTLSeconds: ttlSeconds})
}

// leaseMismatch writes the 412 of a heartbeat that does not hold the
// lease, with the lease as the server sees it in error.details, which
// kit.APIError has no room for.
func (s *Service) leaseMismatch(c *kit.Call, it *item) error {
	type current struct {
		State         string `json:"state"`
		TTLSeconds    int    `json:"ttl_seconds"`
		LastHeartbeat string `json:"last_heartbeat"`
	}
	type detail struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Details struct {
			CurrentState current `json:"current_state"`
		} `json:"details"`
	}
	body := struct {
		Type      string `json:"type"`
		Error     detail `json:"error"`
		RequestID string `json:"request_id"`
	}{Type: "error", RequestID: c.Ex.RequestID}
	body.Error.Type = kit.ErrInvalidRequest
	body.Error.Message = "expected_last_heartbeat does not match the lease of work item `" + it.id + "`"
	body.Error.Details.CurrentState = current{State: it.state, TTLSeconds: int(it.ttl.Seconds()), LastHeartbeat: it.lastHeartbeat()}
	c.Ex.ErrType = kit.ErrInvalidRequest
	c.W.Header().Set("x-should-retry", "false")
	kit.WriteJSON(c.W, http.StatusPreconditionFailed, body)
	return nil
}

type stopBody struct {
	Force kit.Optional[bool] `json:"force"`
}

func (s *Service) stop(c *kit.Call) error {
	var body stopBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.NotNull("force", body.Force); err != nil {
		return err
	}
	force := body.Force.Value
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.itemLocked(c)
	if err != nil {
		return err
	}
	now := c.Now()
	switch {
	case it.state == stateStopped:
		return kit.StateConflict("work item `%s` is already stopped", it.id)
	case it.state == stateQueued || force:
		s.stopLocked(it, now)
	case it.state == stateStarting || it.state == stateActive:
		it.state, it.stopRequestedAt = stateStopping, now
	}
	return c.OK(it.view())
}

func (s *Service) list(c *kit.Call) error {
	if err := requireEnvironmentKey(c); err != nil {
		return err
	}
	p, err := kit.ParseCursorPageParams(c.R.URL.Query(), 100)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	env, err := s.environmentLocked(c)
	if err != nil {
		return err
	}
	all := slices.SortedFunc(slices.Values(s.queues[env.ID]), kit.NewestFirst((*item).position))
	keep := func(*item) bool { return true }
	return c.OK(kit.MapCursorPage(kit.PaginateByCursor(all, (*item).position, keep, p), (*item).view))
}

func (s *Service) stats(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	env, err := s.environmentLocked(c)
	if err != nil {
		return err
	}
	out := statsJSON{Type: "work_queue_stats"}
	var oldest *item
	for _, it := range s.queues[env.ID] {
		if it.state != stateQueued {
			continue
		}
		if it.polledAt.IsZero() {
			out.Depth++
		} else {
			out.Pending++
		}
		if oldest == nil || it.createdAt.Before(oldest.createdAt) {
			oldest = it
		}
	}
	if oldest != nil {
		ts := kit.Timestamp(oldest.createdAt)
		out.OldestQueuedAt = &ts
	}
	out.WorkersPolling = s.workersPollingLocked(env.ID, c.Now())
	return c.OK(out)
}

func (s *Service) get(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.itemLocked(c)
	if err != nil {
		return err
	}
	return c.OK(it.view())
}

type updateBody struct {
	Metadata kit.Optional[map[string]json.RawMessage] `json:"metadata"`
}

func (s *Service) update(c *kit.Call) error {
	var body updateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.itemLocked(c)
	if err != nil {
		return err
	}
	metadata, err := kit.MetadataPatch(it.metadata, body.Metadata, false)
	if err != nil {
		return err
	}
	it.metadata = metadata
	return c.OK(it.view())
}
