package sessions

import "github.com/agentplatform/agentplatform-go/internal/pipeline"

// The tool runner takes *Service and reads the client's tracer provider,
// logger and content mode through the pipeline behind it; this tells the
// pipeline package how to find it without exporting it.
func init() {
	pipeline.RegisterOwner(func(v any) (*pipeline.Pipeline, bool) {
		switch s := v.(type) {
		case *Service:
			if s != nil {
				return s.p, s.p != nil
			}
		case *EventsService:
			if s != nil {
				return s.p, s.p != nil
			}
		}
		return nil, false
	})
}
