package messages

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Message Batches (docs/message-batches-wire.md): POST /v1/messages/batches
// and the batch's retrieve, list, cancel, delete and results. A batch lives
// in memory, in its workspace, and is processed on the server's clock
// (batches_process.go).

const (
	pathBatches = "/v1/messages/batches"
	pathBatch   = pathBatches + "/{message_batch_id}"

	// maxBatchRequests is the platform's limit on one batch's requests.
	// The body is bounded by the server's request limit (kit.MaxBodyBytes),
	// below the platform's 256 MB, which the SDK checks.
	maxBatchRequests = 100_000
	maxCustomIDLen   = 64
)

// customIDPattern is what a custom_id may hold.
var customIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// batchState is the family's batches, guarded by mu. Processing a batch
// runs the fake model under mu, which takes the model's own lock inside
// it, never the other way round.
type batchState struct {
	mu    sync.Mutex
	byID  map[string]*batch
	order []*batch // creation order; lists walk it newest first
}

func (s *Service) batchRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodPost, Path: pathBatches, Op: "messages.batches.create", Handle: s.createBatch},
		{Method: http.MethodGet, Path: pathBatches, Op: "messages.batches.list", Handle: s.listBatches},
		{Method: http.MethodGet, Path: pathBatch, Op: "messages.batches.retrieve", Handle: s.getBatch},
		{Method: http.MethodDelete, Path: pathBatch, Op: "messages.batches.delete", Handle: s.deleteBatch},
		{Method: http.MethodPost, Path: pathBatch + "/cancel", Op: "messages.batches.cancel", Handle: s.cancelBatch},
		{Method: http.MethodGet, Path: pathBatch + "/results", Op: "messages.batches.results", Handle: s.batchResults},
	}
}

func (s *Service) createBatch(c *kit.Call) error {
	var in batchCreateJSON
	if err := c.Decode(&in); err != nil {
		return err
	}
	switch n := len(in.Requests); {
	case in.Requests == nil:
		return kit.InvalidField("requests", "Field required")
	case n == 0:
		return kit.InvalidField("requests", "must have at least 1 request")
	case n > maxBatchRequests:
		return kit.InvalidField("requests", "must have at most %d requests, got %d", maxBatchRequests, n)
	}
	seen := make(map[string]int, len(in.Requests))
	reqs := make([]batchRequest, len(in.Requests))
	for i, r := range in.Requests {
		switch {
		case r.CustomID == nil:
			return kit.InvalidField(fieldAt(i, "custom_id"), "Field required")
		case !customIDPattern.MatchString(*r.CustomID):
			return kit.InvalidField(fieldAt(i, "custom_id"),
				"must be 1 to %d characters of letters, digits, '_' and '-'", maxCustomIDLen)
		case len(r.Params) == 0 || r.Params[0] != '{':
			return kit.InvalidField(fieldAt(i, "params"), "must be an object")
		}
		if j, dup := seen[*r.CustomID]; dup {
			return kit.InvalidField(fieldAt(i, "custom_id"), "duplicates requests.%d.custom_id `%s`: custom_id must be unique within a batch", j, *r.CustomID)
		}
		seen[*r.CustomID] = i
		reqs[i] = batchRequest{customID: *r.CustomID, params: r.Params}
	}
	now := c.Now()
	b := &batch{
		id: s.cfg.ids("msgbatch_"), workspace: c.WorkspaceID, betas: c.Betas, version: c.Version,
		created: now, expires: now.Add(batchLifetime), at: now,
		reqs: reqs, lines: make([][]byte, 0, len(reqs)),
	}
	s.storeBatch(b)
	return c.OK(b.wire(c))
}

// storeBatch keeps a new batch.
func (s *Service) storeBatch(b *batch) {
	st := &s.batches
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.byID == nil {
		st.byID = map[string]*batch{}
	}
	st.byID[b.id] = b
	st.order = append(st.order, b)
}

func fieldAt(i int, name string) string {
	return "requests." + strconv.Itoa(i) + "." + name
}

// batchLocked finds the call's batch and brings it up to the clock.
func (s *Service) batchLocked(c *kit.Call) (*batch, error) {
	id := c.R.PathValue("message_batch_id")
	b := s.batches.byID[id]
	if b == nil || b.workspace != c.WorkspaceID {
		return nil, kit.NotFound("message_batch_id: no message batch with id `%s`", id)
	}
	s.catchUpLocked(b, c.Now())
	return b, nil
}

func (s *Service) getBatch(c *kit.Call) error {
	s.batches.mu.Lock()
	defer s.batches.mu.Unlock()
	b, err := s.batchLocked(c)
	if err != nil {
		return err
	}
	return c.OK(b.wire(c))
}

func (s *Service) listBatches(c *kit.Call) error {
	p, err := kit.ParseIDPageParams(c.R.URL.Query())
	if err != nil {
		return err
	}
	st := &s.batches
	st.mu.Lock()
	defer st.mu.Unlock()
	all := slices.Clone(st.order)
	slices.Reverse(all) // newest first
	keep := func(b *batch) bool { return b.workspace == c.WorkspaceID }
	page, err := kit.PaginateByID(all, func(b *batch) string { return b.id }, keep, p)
	if err != nil {
		return err
	}
	out := kit.IDPage[batchJSON]{FirstID: page.FirstID, LastID: page.LastID, HasMore: page.HasMore,
		Data: make([]batchJSON, 0, len(page.Data))}
	now := c.Now()
	for _, b := range page.Data {
		s.catchUpLocked(b, now)
		out.Data = append(out.Data, b.wire(c))
	}
	return c.OK(out)
}

// cancelBatch asks an in-progress batch to stop: it is canceling until the
// request being processed finishes, then ends with the rest canceled. A
// batch already canceling or ended is returned as it is.
func (s *Service) cancelBatch(c *kit.Call) error {
	s.batches.mu.Lock()
	defer s.batches.mu.Unlock()
	b, err := s.batchLocked(c)
	if err != nil {
		return err
	}
	if b.endedAt.IsZero() && b.cancelAt.IsZero() {
		b.cancelAt = c.Now()
		s.catchUpLocked(b, c.Now())
	}
	return c.OK(b.wire(c))
}

// deleteBatch deletes an ended batch; one still processing must be
// canceled first.
func (s *Service) deleteBatch(c *kit.Call) error {
	st := &s.batches
	st.mu.Lock()
	defer st.mu.Unlock()
	b, err := s.batchLocked(c)
	if err != nil {
		return err
	}
	if b.endedAt.IsZero() {
		return kit.InvalidField("message_batch_id", "message batch `%s` has not ended: cancel it, and delete it once it has ended", b.id)
	}
	delete(st.byID, b.id)
	st.order = slices.DeleteFunc(st.order, func(o *batch) bool { return o == b })
	return c.OK(deletedBatchJSON{ID: b.id, Type: "message_batch_deleted"})
}

// batchResults streams an ended batch's results as JSON Lines, one line
// per request in request order, written to the connection as they are
// read: the body is never built whole. The lines of an ended batch never
// change, so they are written without the lock.
func (s *Service) batchResults(c *kit.Call) error {
	s.batches.mu.Lock()
	b, err := s.batchLocked(c)
	var lines [][]byte
	if err == nil && b.endedAt.IsZero() {
		err = kit.InvalidField("message_batch_id", "message batch `%s` has not ended: results are available once processing_status is ended", b.id)
	} else if err == nil {
		lines = b.lines
	}
	s.batches.mu.Unlock()
	if err != nil {
		return err
	}
	h := c.W.Header()
	h.Set("Content-Type", "application/x-jsonl")
	c.W.WriteHeader(http.StatusOK)
	c.Ex.RB.Commit()
	for _, line := range lines {
		if _, err := c.W.Write(line); err != nil {
			return nil // the client went away; the status is sent already
		}
	}
	return nil
}

// resultsURL is where a batch's results are read, on the server that
// answers c.
func resultsURL(c *kit.Call, id string) string {
	scheme := "http"
	if c.R.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.R.Host + pathBatches + "/" + id + "/results"
}
