package messages

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The fake model's server-side state (docs/messages-wire.md 10.4, 10.5,
// 10.10): the prompt cache, code-execution containers, the thinking
// signature key, and the wait on the server clock that the delay directive
// uses. Guarded by Server.mu except where noted; usable as its zero value.

type messageState struct {
	cache      map[promptCacheKey]*promptCacheEntry
	containers map[containerKey]time.Time // expiry
	diag       map[string]*diagStore      // workspace → fingerprints (diagnostics.go)

	keyOnce sync.Once
	key     []byte // thinking-signature key (set once, then read-only)

	// clock moves (ManualClock), for waits on the server clock
	watchOnce sync.Once
	clockMu   sync.Mutex
	clockWake chan struct{}
}

type promptCacheKey struct {
	workspace, model string
	prefix           [32]byte
}

type promptCacheEntry struct {
	expires time.Time
}

type containerKey struct{ workspace, id string }

func (s *Service) signingKey() []byte {
	st := &s.messages
	st.keyOnce.Do(func() {
		if len(s.cfg.thinkingKey) > 0 {
			st.key = s.cfg.thinkingKey
			return
		}
		st.key = make([]byte, 32)
		rand.Read(st.key)
	})
	return st.key
}

// signThinking is 10.10's signature: base64(len(text) as 4 bytes
// big-endian ‖ text ‖ HMAC-SHA256(key, model ‖ 0x00 ‖ text)).
func signThinking(key []byte, model, text string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(model))
	mac.Write([]byte{0})
	mac.Write([]byte(text))
	buf := binary.BigEndian.AppendUint32(nil, uint32(len(text)))
	buf = append(buf, text...)
	buf = mac.Sum(buf)
	return base64.StdEncoding.EncodeToString(buf)
}

// verifySignature checks a thinking block sent back: the MAC under the
// hop's model, and, unless thinking is "" (display omitted), the text.
func (r *msgRequest) verifySignature(model, thinking, signature string) bool {
	raw, err := base64.StdEncoding.DecodeString(signature)
	if err != nil || len(raw) < 4+sha256.Size {
		return false
	}
	n := int(binary.BigEndian.Uint32(raw))
	if n != len(raw)-4-sha256.Size {
		return false
	}
	text := string(raw[4 : 4+n])
	if thinking != "" && thinking != text {
		return false
	}
	return hmac.Equal([]byte(signThinking(r.sigKey, model, text)), []byte(signature))
}

// detID derives an id from the request's seed: tool-call and container ids
// are a function of the request (and the attempt and block), so a stream
// and a non-streamed call of one request carry the same ids (5.9). The
// shape is the id source's: prefix + "01" + 22 base62 characters.
func detID(prefix string, seed [32]byte, parts ...string) string {
	h := sha256.New()
	h.Write(seed[:])
	h.Write([]byte(prefix))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	sum := h.Sum(nil)
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString("01")
	for i := range kit.IDBodyLen {
		b.WriteByte(kit.Base62[int(sum[i])%len(kit.Base62)])
	}
	return b.String()
}

// --- prompt cache (10.4) ---

// cacheUsage is the input side of one attempt.
type cacheUsage struct {
	read, write5m, write1h int
}

// usePromptCache reads and writes the prompt cache for one attempt on
// model and returns the counts (M3 never calls it).
func (s *Service) usePromptCache(workspace, model string, r *msgRequest, segs *promptSegments) cacheUsage {
	bps, _ := r.breakpoints()
	if len(bps) == 0 {
		return cacheUsage{}
	}
	now := s.now()
	ttl := func(t string) time.Duration {
		if t == "1h" {
			return time.Hour
		}
		return 5 * time.Minute
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.messages
	if st.cache == nil {
		st.cache = map[promptCacheKey]*promptCacheEntry{}
	}
	key := func(bp breakpoint) promptCacheKey {
		return promptCacheKey{workspace: workspace, model: model, prefix: segs.digest(bp.seg)}
	}
	var u cacheUsage
	hit := -1
	for k := len(bps) - 1; k >= 0; k-- {
		if e := st.cache[key(bps[k])]; e != nil && now.Before(e.expires) {
			hit = k
			e.expires = now.Add(ttl(bps[k].ttl))
			u.read = segs.prefixTokens(bps[k].seg)
			break
		}
	}
	prev := u.read
	for _, bp := range bps[hit+1:] {
		p := segs.prefixTokens(bp.seg)
		if w := p - prev; w > 0 {
			if bp.ttl == "1h" {
				u.write1h += w
			} else {
				u.write5m += w
			}
			prev = p
		}
		st.cache[key(bp)] = &promptCacheEntry{expires: now.Add(ttl(bp.ttl))}
	}
	for k, e := range st.cache { // keep memory bounded on long runs
		if !now.Before(e.expires) {
			delete(st.cache, k)
		}
	}
	return u
}

// --- containers (10.5) ---

const containerTTL = time.Hour

func (s *Service) containerExists(workspace, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.messages.containers[containerKey{workspace, id}]
	return ok && s.now().Before(exp)
}

// touchContainer (re)starts a container's hour and returns its expiry.
func (s *Service) touchContainer(workspace, id string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.messages.containers == nil {
		s.messages.containers = map[containerKey]time.Time{}
	}
	exp := s.now().Add(containerTTL)
	s.messages.containers[containerKey{workspace, id}] = exp
	return exp
}

// --- waiting on the server clock (delay directive) ---

// clockMoved returns a channel closed at the next move of a ManualClock.
func (s *Service) clockMoved(mc *kit.ManualClock) <-chan struct{} {
	st := &s.messages
	st.watchOnce.Do(func() {
		kit.OnMove(mc, func() {
			st.clockMu.Lock()
			if st.clockWake != nil {
				close(st.clockWake)
				st.clockWake = nil
			}
			st.clockMu.Unlock()
		})
	})
	st.clockMu.Lock()
	defer st.clockMu.Unlock()
	if st.clockWake == nil {
		st.clockWake = make(chan struct{})
	}
	return st.clockWake
}

// sleep waits d on the server clock: a ManualClock must be advanced past
// the deadline. idle, if set, runs after every `every` of real time spent
// waiting (keep-alives) and reports false when the client is gone. sleep
// reports false when the wait was cut short.
func (s *Service) sleep(ctx context.Context, d time.Duration, every time.Duration, idle func() bool) bool {
	if d <= 0 {
		return true
	}
	deadline := s.cfg.clock.Now().Add(d)
	var keepAlive <-chan time.Time
	if idle != nil {
		t := time.NewTicker(every)
		defer t.Stop()
		keepAlive = t.C
	}
	for {
		now := s.cfg.clock.Now()
		if !now.Before(deadline) {
			return true
		}
		var wake <-chan struct{}
		var fired <-chan time.Time
		var timer *time.Timer
		if mc, ok := s.cfg.clock.(*kit.ManualClock); ok {
			wake = s.clockMoved(mc)
			if !mc.Now().Before(deadline) { // moved meanwhile
				return true
			}
		} else {
			timer = time.NewTimer(deadline.Sub(now))
			fired = timer.C
		}
		ok := true
		select {
		case <-wake:
		case <-fired:
		case <-keepAlive:
			ok = idle()
		case <-ctx.Done():
			ok = false
		}
		if timer != nil {
			timer.Stop()
		}
		if !ok {
			return false
		}
	}
}
