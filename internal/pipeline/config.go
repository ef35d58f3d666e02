package pipeline

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
)

// Defaults, documented on the options that change them.
const (
	DefaultBaseURL        = "https://api.vendor.com"
	DefaultVersion        = "2023-06-01"
	DefaultMaxRetries     = 2
	DefaultRequestTimeout = 10 * time.Minute
	DefaultMaxRetryWait   = 60 * time.Second
	// DefaultMaxResponseSize bounds a response body that is read in full
	// (every one but an event stream's): large enough for any page the
	// API returns, small enough that a broken or hostile server cannot
	// exhaust the application's memory.
	DefaultMaxResponseSize = 64 << 20

	// initialBackoff and maxBackoff shape the exponential backoff used when
	// the server does not say how long to wait.
	initialBackoff = 500 * time.Millisecond
	maxBackoff     = 8 * time.Second
)

// Environment variables read by New before options apply.
const (
	EnvAPIKey      = "VENDOR_API_KEY"
	EnvBaseURL     = "VENDOR_BASE_URL"
	EnvWorkspaceID = "VENDOR_WORKSPACE_ID"
)

// Option changes a Config. The option package exports the constructors.
type Option func(*Config) error

// MiddlewareNext sends a request attempt on to the next middleware, and in
// the end to the HTTP transport. It and Middleware are aliases of plain
// func types, as in the option package, so that godoc shows applications
// the signature instead of a name in an internal package.
type MiddlewareNext = func(*http.Request) (*http.Response, error)

// Middleware sees every attempt of every request, retries included, after
// credentials have been applied.
type Middleware = func(*http.Request, MiddlewareNext) (*http.Response, error)

// Config is everything that shapes a call. The client holds one; each call
// works on a copy with its own options applied, so slices and maps here are
// never modified in place: options replace them.
type Config struct {
	baseURL      string // scheme://host[/prefix], no trailing slash
	baseInsecure bool   // plain HTTP to a host that is not loopback

	Credentials    auth.Credentials
	Version        string
	Betas          []string
	WorkspaceID    string
	HTTPClient     *http.Client
	MaxRetries     int
	RequestTimeout time.Duration
	MaxRetryWait   time.Duration
	Header         http.Header
	Logger         *slog.Logger
	Middleware     []Middleware
	ResponseInto   **http.Response
	AllowInsecure  bool
	// MaxResponseSize bounds a body read in full (not an event stream's).
	MaxResponseSize int64

	// Tracing (docs/tracing.md): nil provider and propagator mean the globals.
	TracerProvider trace.TracerProvider
	Propagator     propagation.TextMapPropagator
	CaptureContent bool   // content mode; default from OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
	ConversationID string // replaces gen_ai.conversation.id

	// The caller's query parameters and body fields, in the order given
	// (SetQuery, EditJSON; extend.go).
	queryEdits []queryEdit
	bodyEdits  []bodyEdit
}

// SetBaseURL validates and stores the base URL.
func (c *Config) SetBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apierror.Invalid("base_url", "must be an absolute http or https URL")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return apierror.Invalid("base_url", "must not contain user info, a query or a fragment")
	}
	c.baseURL = strings.TrimSuffix(u.Scheme+"://"+u.Host+u.EscapedPath(), "/")
	c.baseInsecure = u.Scheme == "http" && !isLoopback(u.Hostname())
	return nil
}

func defaultConfig() Config {
	c := Config{
		Version:         DefaultVersion,
		MaxRetries:      DefaultMaxRetries,
		RequestTimeout:  DefaultRequestTimeout,
		MaxRetryWait:    DefaultMaxRetryWait,
		MaxResponseSize: DefaultMaxResponseSize,
		CaptureContent:  captureContentFromEnv(),
	}
	_ = c.SetBaseURL(DefaultBaseURL)
	return c
}
