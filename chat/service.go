package chat

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// Service calls the OpenAI-compatible endpoint
// (docs/messages-wire.md 9), for code written against the OpenAI
// chat-completions shape. Get one from
// agentplatform.Client.Chat. Its errors are
// *apierror.Error too: the endpoint's OpenAI-shaped error body is read into
// the same type, message and status.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Chat
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

// Create runs a chat completion: POST /v1/chat/completions.
func (s *Service) Create(ctx context.Context, params CompletionParams, opts ...option.Option) (*Completion, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/chat/completions")
	req.Body = chatBody{p: &params}
	req.Result = chatResult
	return pipeline.Do[Completion](ctx, s.p, req, opts)
}

// CompletionParams is the request of a chat completion
// (docs/messages-wire.md 9.1). Fields the platform ignores are not
// modelled; Extra sends any field as given.
type CompletionParams struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// MaxCompletionTokens wins over MaxTokens; with neither, the platform
	// allows min(4096, the model's limit).
	MaxCompletionTokens int        `json:"max_completion_tokens,omitzero"`
	MaxTokens           int        `json:"max_tokens,omitzero"`
	Temperature         *float64   `json:"temperature,omitempty"` // 0–2; above 1 is capped at 1
	TopP                *float64   `json:"top_p,omitempty"`
	Stop                []string   `json:"stop,omitzero"`
	Tools               []Tool     `json:"tools,omitzero"`
	ToolChoice          ToolChoice `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool      `json:"parallel_tool_calls,omitempty"`
	// Thinking turns reasoning on; it is used but not returned.
	Thinking messages.Thinking `json:"thinking,omitempty"`
	// StreamOptions applies to Stream only; nil there means include_usage.
	StreamOptions *StreamOptions `json:"stream_options,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// StreamOptions configures a streamed completion.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatBody is the JSON of a chat request.
type chatBody struct {
	p      *CompletionParams
	stream bool
}

func (b chatBody) MarshalJSON() ([]byte, error) {
	type plain CompletionParams
	p := plain(*b.p)
	if !b.stream {
		p.StreamOptions = nil
	} else if p.StreamOptions == nil {
		p.StreamOptions = &StreamOptions{IncludeUsage: true}
	}
	out, err := json.Marshal(&p)
	if err != nil || (!b.stream && len(b.p.Extra) == 0) {
		return out, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, err
	}
	maps.Copy(m, b.p.Extra)
	if b.stream {
		m["stream"] = json.RawMessage("true")
	}
	return json.Marshal(m)
}
