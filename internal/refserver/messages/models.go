package messages

import (
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Models: the read-only catalogue (docs/api-choices.md "Models"), from
// models_catalog.go.

func (s *Service) modelRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodGet, Path: "/v1/models", Op: "models.list", Handle: s.listModels},
		{Method: http.MethodGet, Path: "/v1/models/{model_id}", Op: "models.retrieve", Handle: s.getModel},
	}
}

// model is a catalogue entry.
type model struct {
	ID             string
	DisplayName    string
	CreatedAt      time.Time // release date
	DeprecatedAt   time.Time // zero: not deprecated
	RetiresAt      time.Time // zero: no retirement date
	Lifecycle      string
	Line           string
	MaxInputTokens int
	MaxTokens      int
	Capabilities   modelCapabilities
}

type modelJSON struct {
	Type           string            `json:"type"`
	ID             string            `json:"id"`
	DisplayName    string            `json:"display_name"`
	CreatedAt      kit.Timestamp     `json:"created_at"`
	DeprecatedAt   *kit.Timestamp    `json:"deprecated_at"`
	RetiresAt      *kit.Timestamp    `json:"retires_at"`
	Lifecycle      string            `json:"lifecycle"`
	Line           string            `json:"line"`
	MaxInputTokens int               `json:"max_input_tokens"`
	MaxTokens      int               `json:"max_tokens"`
	Capabilities   modelCapabilities `json:"capabilities"`
}

func (m model) view() modelJSON {
	return modelJSON{
		Type:           "model",
		ID:             m.ID,
		DisplayName:    m.DisplayName,
		CreatedAt:      kit.Timestamp(m.CreatedAt),
		DeprecatedAt:   kit.OptionalTimestamp(m.DeprecatedAt),
		RetiresAt:      kit.OptionalTimestamp(m.RetiresAt),
		Lifecycle:      m.Lifecycle,
		Line:           m.Line,
		MaxInputTokens: m.MaxInputTokens,
		MaxTokens:      m.MaxTokens,
		Capabilities:   m.Capabilities,
	}
}

// Each capability is {"supported": bool}; nested capabilities sit beside
// "supported" (docs/api-choices.md, "Models").
type capability struct {
	Supported bool `json:"supported"`
}

type modelCapabilities struct {
	Batch             capability                  `json:"batch"`
	Citations         capability                  `json:"citations"`
	CodeExecution     capability                  `json:"code_execution"`
	ContextManagement contextManagementCapability `json:"context_management"`
	Effort            effortCapability            `json:"effort"`
	ImageInput        capability                  `json:"image_input"`
	PDFInput          capability                  `json:"pdf_input"`
	ServerTools       serverToolsCapability       `json:"server_tools"`
	StructuredOutputs capability                  `json:"structured_outputs"`
	Thinking          thinkingCapability          `json:"thinking"`
}

type contextManagementCapability struct {
	Supported     bool       `json:"supported"`
	ClearThinking capability `json:"clear_thinking_20251015"`
	ClearToolUses capability `json:"clear_tool_uses_20250919"`
	Compact       capability `json:"compact_20260112"`
}

type effortCapability struct {
	Supported bool       `json:"supported"`
	Low       capability `json:"low"`
	Medium    capability `json:"medium"`
	High      capability `json:"high"`
	Max       capability `json:"max"`
	XHigh     capability `json:"xhigh"`
}

type serverToolsCapability struct {
	Supported     bool       `json:"supported"`
	CodeExecution capability `json:"code_execution"`
	WebSearch     capability `json:"web_search"`
}

type thinkingCapability struct {
	Supported bool          `json:"supported"`
	Types     thinkingTypes `json:"types"`
}

type thinkingTypes struct {
	Adaptive     capability `json:"adaptive"`
	BetweenTools capability `json:"between_tools"`
	Disabled     capability `json:"disabled"`
	Enabled      capability `json:"enabled"`
}

func (s *Service) listModels(c *kit.Call) error {
	p, err := kit.ParseIDPageParams(c.R.URL.Query())
	if err != nil {
		return err
	}
	page, err := kit.PaginateByID(modelCatalog, func(m model) string { return m.ID }, func(model) bool { return true }, p)
	if err != nil {
		return err
	}
	return c.OK(kit.MapIDPage(page, model.view))
}

func (s *Service) getModel(c *kit.Call) error {
	id := c.R.PathValue("model_id")
	if m := lookupModel(id); m != nil {
		return c.OK(m.view())
	}
	return kit.NotFound("Model `%s` not found.", id)
}

// lookupModel returns the catalogue entry of id, or nil: every endpoint that
// takes a model id accepts exactly the catalogue's ids.
func lookupModel(id string) *model {
	for i := range modelCatalog {
		if modelCatalog[i].ID == id {
			return &modelCatalog[i]
		}
	}
	return nil
}

// effortSupported reports whether m's capabilities allow the effort level.
func effortSupported(m *model, effort string) bool {
	e := m.Capabilities.Effort
	if !e.Supported {
		return false
	}
	return map[string]bool{"low": e.Low.Supported, "medium": e.Medium.Supported, "high": e.High.Supported,
		"xhigh": e.XHigh.Supported, "max": e.Max.Supported}[effort]
}

// KnownModel reports whether id is in the model catalogue: the families
// that take a model id (agents, sessions) accept only these.
func KnownModel(id string) bool { return lookupModel(id) != nil }

// ModelSupportsEffort reports whether the catalogue model id accepts the
// effort level (false for an unknown model).
func ModelSupportsEffort(id, effort string) bool {
	m := lookupModel(id)
	return m != nil && effortSupported(m, effort)
}
