package messages

import "crypto/sha256"

// Prompt-cache diagnostics (docs/messages-wire.md 4.1, "diagnostics"). A
// request that carries the diagnostics field has its prompt fingerprinted
// and kept under the id of its response, per workspace, for the last
// diagStoreLimit such requests (the oldest is forgotten first). A later
// request naming that id as diagnostics.previous_message_id is compared
// with it, in the order model (and speed), system, tools, messages, and the
// response names the first difference. Only appending messages is not a
// difference: that is how a conversation grows.

// diagStoreLimit is how many opted-in requests a workspace's store keeps.
const diagStoreLimit = 1000

// diagnosticsReq is the request field: previous is "" on an opt-in without
// an earlier message (null or absent previous_message_id).
type diagnosticsReq struct{ previous string }

func (r *msgRequest) fDiagnostics(p string, v *jnode) error {
	d := &diagnosticsReq{}
	r.diagnostics = d
	return walkObject(p, v, map[string]fieldFunc{
		"previous_message_id": nullable(func(p string, v *jnode) error {
			s, err := readStrLen(p, v, 1, 0)
			d.previous = s
			return err
		}),
	})
}

// diagnosticsJSON is the response's diagnostics object.
type diagnosticsJSON struct {
	CacheMissReason *cacheMissJSON `json:"cache_miss_reason"`
}

type cacheMissJSON struct {
	Type string `json:"type"`
	// MissedTokens is sent by the four "changed" types only.
	MissedTokens *int `json:"cache_missed_input_tokens,omitempty"`
}

// fingerprint is what the store keeps of a prompt: hashes of each part,
// and the prefix token counts that say how much of it the cache could
// have reused.
type fingerprint struct {
	model    [32]byte // model id and speed
	system   [32]byte
	tools    [32]byte // tools and MCP servers
	messages [][32]byte
	// tokens at the end of the tools, of the system prompt, and of each
	// message; total is the whole prompt.
	toolsEnd, systemEnd int
	messageEnd          []int
	total               int
}

// diagStore is one workspace's fingerprints, oldest first in order.
type diagStore struct {
	byID  map[string]*fingerprint
	order []string
}

// diagnosis is a request's diagnostics: the answer, and the fingerprint
// to keep once the response has its id.
type diagnosis struct {
	s         *Service
	workspace string
	fp        *fingerprint
	answer    *diagnosticsJSON
}

func hashParts(parts ...string) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// promptFingerprint fingerprints r's prompt. Cache marks do not count: they
// move between turns without changing the prompt.
func (r *msgRequest) promptFingerprint() *fingerprint {
	segs := r.segments()
	speed := r.speed
	if speed == "" {
		speed = "standard"
	}
	fp := &fingerprint{model: hashParts(r.modelID, speed), toolsEnd: segs.toolsEnd, systemEnd: segs.systemEnd,
		messageEnd: segs.messageEnd, total: r.baseTokens}
	var parts []string
	for _, t := range r.tools {
		parts = append(parts, "tool:"+t.node.without("cache_control").canon())
	}
	for _, m := range r.mcpServers {
		parts = append(parts, "mcp:"+m.node.canon())
	}
	fp.tools = hashParts(parts...)
	parts = parts[:0]
	for _, b := range r.system {
		parts = append(parts, b.text)
	}
	fp.system = hashParts(parts...)
	for _, m := range r.messages {
		parts = append(parts[:0], m.role)
		for _, b := range m.content {
			parts = append(parts, b.node.without("cache_control").canon())
		}
		fp.messages = append(fp.messages, hashParts(parts...))
	}
	return fp
}

// compare names the first difference of cur from prev, or returns nil.
// The missed tokens are prev's prompt after the longest prefix that cur
// still shares with it (tools, then system, then messages, in prompt order).
func compare(prev, cur *fingerprint) *cacheMissJSON {
	miss := func(typ string, reusable int) *cacheMissJSON {
		n := max(prev.total-reusable, 0)
		return &cacheMissJSON{Type: typ, MissedTokens: &n}
	}
	switch {
	case prev.model != cur.model:
		return miss("model_changed", 0)
	case prev.system != cur.system:
		if prev.tools != cur.tools {
			return miss("system_changed", 0)
		}
		return miss("system_changed", prev.toolsEnd)
	case prev.tools != cur.tools:
		return miss("tools_changed", 0)
	}
	for i, h := range prev.messages {
		if i >= len(cur.messages) || cur.messages[i] != h {
			reusable := prev.systemEnd
			if i > 0 {
				reusable = prev.messageEnd[i-1]
			}
			return miss("messages_changed", reusable)
		}
	}
	return nil
}

// diagnose answers r's diagnostics field in workspace; nil when the
// request did not carry it.
func (s *Service) diagnose(r *msgRequest, workspace string) *diagnosis {
	if r.diagnostics == nil {
		return nil
	}
	d := &diagnosis{s: s, workspace: workspace, fp: r.promptFingerprint()}
	if r.diagnostics.previous == "" {
		return d
	}
	s.mu.Lock()
	prev := s.messages.diag[workspace].get(r.diagnostics.previous)
	s.mu.Unlock()
	switch {
	case prev == nil:
		d.answer = &diagnosticsJSON{CacheMissReason: &cacheMissJSON{Type: "previous_message_not_found"}}
	default:
		if m := compare(prev, d.fp); m != nil {
			d.answer = &diagnosticsJSON{CacheMissReason: m}
		}
	}
	return d
}

// remember keeps the request's fingerprint under its response's id and
// returns the response's diagnostics. Safe on nil (no diagnostics).
func (d *diagnosis) remember(id string) *diagnosticsJSON {
	if d == nil {
		return nil
	}
	s := d.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.messages.diag == nil {
		s.messages.diag = map[string]*diagStore{}
	}
	st := s.messages.diag[d.workspace]
	if st == nil {
		st = &diagStore{byID: map[string]*fingerprint{}}
		s.messages.diag[d.workspace] = st
	}
	st.add(id, d.fp)
	return d.answer
}

func (st *diagStore) get(id string) *fingerprint {
	if st == nil {
		return nil
	}
	return st.byID[id]
}

// add keeps fp under id and forgets the oldest entries past the limit.
func (st *diagStore) add(id string, fp *fingerprint) {
	if _, ok := st.byID[id]; !ok {
		st.order = append(st.order, id)
	}
	st.byID[id] = fp
	for len(st.order) > diagStoreLimit {
		delete(st.byID, st.order[0])
		st.order = st.order[1:]
	}
}
