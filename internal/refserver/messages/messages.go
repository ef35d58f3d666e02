package messages

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Messages: POST /v1/messages (JSON or a stream) and POST
// /v1/messages/count_tokens, over the fake model (docs/messages-wire.md;
// fakemodel.go). No beta is required; authentication, workspace selection,
// vendor-version and vendor-beta apply as everywhere.

const (
	pathMessages        = "/v1/messages"
	pathCountTokens     = "/v1/messages/count_tokens"
	pathChatCompletions = "/v1/chat/completions"
)

func (s *Service) messageRoutes() []kit.Route {
	routes := []kit.Route{
		{Method: http.MethodPost, Path: pathMessages, Op: opMessagesCreate, Handle: s.createMessage, Streams: bodyStreams},
		// vendor.messages.count_tokens and chat completions are SDK spans
		// only; the API emits no span for them (no op; docs/tracing.md).
		{Method: http.MethodPost, Path: pathCountTokens, Handle: s.countTokens},
		{Method: http.MethodPost, Path: pathChatCompletions, Handle: s.chatCompletions, Streams: bodyStreams},
	}
	// Other methods on these paths: 405 (docs/messages-wire.md 1.1), with no
	// span: they
	// name no operation.
	for _, p := range []string{pathMessages, pathCountTokens, pathChatCompletions} {
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			routes = append(routes, kit.Route{Method: m, Path: p, Handle: methodNotAllowed})
		}
	}
	return routes
}

func methodNotAllowed(c *kit.Call) error {
	c.W.Header().Set("Allow", http.MethodPost)
	return kit.NewAPIError(http.StatusMethodNotAllowed, kit.ErrInvalidRequest, "method: must be POST")
}

// bodyStreams reports whether a body asks for a stream ("stream": true). A
// streaming request ignores Idempotency-Key (docs/messages-wire.md 1.2): a
// stream is not
// replayed, a retried stream runs again.
func bodyStreams(body []byte) bool {
	if !bytes.Contains(body, []byte(`"stream"`)) {
		return false
	}
	var probe struct {
		Stream json.RawMessage `json:"stream"`
	}
	return json.Unmarshal(body, &probe) == nil && string(probe.Stream) == "true"
}

// directiveError is the HTTP error of an error directive (10.9).
func directiveError(typ string) *kit.APIError {
	e := directiveErrors[typ]
	return kit.NewAPIError(e.status, typ, "%s", e.message)
}

// resolveGeo is inference_geo as usage reports it: the request's, or the
// workspace's default (2.1).
func (s *Service) resolveGeo(r *msgRequest, workspaceID string) string {
	if r.inferenceGeo != "" {
		return r.inferenceGeo
	}
	if geo, _, ok := s.deps.Residency(workspaceID); ok {
		return geo
	}
	return "global"
}

// readMessagesRequest parses and validates a Messages body.
func (s *Service) readMessagesRequest(c *kit.Call, ep msgEndpoint) (*msgRequest, *directives, error) {
	root, err := parseBody(c.Ex.Body)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.validateMessages(root, ep, c.Betas, c.Version, c.WorkspaceID)
	if err != nil {
		return nil, nil, err
	}
	d, err := r.directives()
	return r, d, err
}

func (s *Service) createMessage(c *kit.Call) error {
	r, d, err := s.readMessagesRequest(c, epCreate)
	if err != nil {
		return err
	}
	s.traceMessages(c, r)
	geo := s.resolveGeo(r, c.WorkspaceID)
	if r.stream && (d.errType == "" || d.errAfter >= 0) {
		s.streamMessage(c, r, d, geo)
		return nil
	}
	if !s.sleep(c.R.Context(), d.delay, 0, nil) {
		return nil // the client went away
	}
	if d.errType != "" {
		r.span.failedAttempt(r, d.errType)
		return directiveError(d.errType)
	}
	res := s.runModel(r, c.WorkspaceID, geo)
	msg := res.message(s.cfg.ids("msg_"))
	r.span.response(res, msg.ID)
	return c.OK(msg)
}

type countTokensJSON struct {
	InputTokens int `json:"input_tokens"`
}

func (s *Service) countTokens(c *kit.Call) error {
	r, d, err := s.readMessagesRequest(c, epCount)
	if err != nil {
		return err
	}
	if !s.sleep(c.R.Context(), d.delay, 0, nil) {
		return nil
	}
	if d.errType != "" {
		return directiveError(d.errType)
	}
	return c.OK(countTokensJSON{InputTokens: r.inputTokens(outputCfg{format: r.format()})})
}

// streamMessage sends the result as server-sent events
// (docs/messages-wire.md 5): the
// 200 and its headers at once, then the frames, each after the delay
// directive's wait. An error directive with after=n, or a
// Fault.StreamCutAfter, ends the stream after n events (pings not counted)
// with an error event; a fault without a Status drops the connection
// instead.
func (s *Service) streamMessage(c *kit.Call, r *msgRequest, d *directives, geo string) {
	res := s.runModel(r, c.WorkspaceID, geo)
	id := s.cfg.ids("msg_")
	r.span.response(res, id)
	frames := res.streamFrames(id)

	h := c.W.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	c.W.WriteHeader(http.StatusOK)
	kit.Flush(c.W)

	w := kit.NewStreamWriter(c, s.cfg.pingInterval)
	defer w.Finish()
	ping := func() bool {
		ok := w.Write(kit.PingFrame)
		w.Written--
		return ok
	}
	errorNow := func() bool {
		if d.errType == "" || w.Written != d.errAfter {
			return false
		}
		data, _ := json.Marshal(kit.ErrorBody{Type: "error", Error: kit.ErrorDetail{Type: d.errType, Message: directiveErrors[d.errType].message},
			RequestID: c.Ex.RequestID})
		c.Ex.ErrType = d.errType
		w.Write(kit.Frame{Type: "error", Data: data})
		return true
	}
	if errorNow() {
		return
	}
	for i, fr := range frames {
		// Keep-alive pings only once message_start is out: the grammar of
		// 5.3 opens every stream with it.
		keepAlive := ping
		if i == 0 {
			keepAlive = nil
		}
		if !s.sleep(c.R.Context(), d.delay, s.cfg.pingInterval, keepAlive) {
			return
		}
		if fr.Type == "ping" {
			if !ping() {
				return
			}
			continue
		}
		// Nothing follows message_stop: an error or a cut due then has
		// nothing left to replace.
		last := i == len(frames)-1
		if !w.Write(fr) || !last && (errorNow() || w.CutNow()) {
			return
		}
	}
}
