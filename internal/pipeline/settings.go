package pipeline

import (
	"log/slog"
	"sync"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/option"
)

// Helpers built on a client's services (the tool runner) read the client's
// settings here rather than through new public API. They get the Pipeline
// behind a service with Of: each package whose services hold a Pipeline
// registers, from an init function, a func that recognises them.

// Observability returns what the client's options (then opts, as a call's
// options would) set for tracing and logging: the tracer provider (nil
// means the global one), the logger (nil means none) and content mode.
// Options that fail are ignored, as the call they come with would fail.
func (p *Pipeline) Observability(opts ...option.Option) (tp trace.TracerProvider, logger *slog.Logger, content bool) {
	cfg := *p.cfg
	for _, o := range opts {
		if o != nil && o(&cfg) != nil {
			cfg = *p.cfg
			break
		}
	}
	return cfg.TracerProvider, cfg.Logger, cfg.CaptureContent
}

var owners struct {
	mu  sync.RWMutex
	fns []func(any) (*Pipeline, bool)
}

// RegisterOwner adds fn, which returns the Pipeline of the values it
// recognises (a package's services). Call it from an init function.
func RegisterOwner(fn func(any) (*Pipeline, bool)) {
	owners.mu.Lock()
	defer owners.mu.Unlock()
	owners.fns = append(owners.fns, fn)
}

// Of returns the Pipeline behind v, a service of a client, or nil when no
// registered owner recognises v.
func Of(v any) *Pipeline {
	owners.mu.RLock()
	defer owners.mu.RUnlock()
	for _, fn := range owners.fns {
		if p, ok := fn(v); ok && p != nil {
			return p
		}
	}
	return nil
}
