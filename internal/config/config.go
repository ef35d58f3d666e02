// Package config holds the settings every option changes: the client's
// Config, which each call copies and changes with its own options. It sits
// below both the option package (which exports the constructors) and the
// request pipeline (which reads the settings).
package config

import (
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/apiversion"
)

// Defaults, documented on the options that change them.
const (
	DefaultBaseURL        = "https://api.vendor.com"
	DefaultVersion        = apiversion.Default
	DefaultMaxRetries     = 2
	DefaultRequestTimeout = 10 * time.Minute
	DefaultMaxRetryWait   = 60 * time.Second
	// DefaultMaxResponseSize bounds a response body that is read in full
	// (every one but an event stream's): large enough for any page the
	// API returns, small enough that a broken or hostile server cannot
	// exhaust the application's memory.
	DefaultMaxResponseSize = 64 << 20
)

// Environment variables read by New before options apply.
const (
	EnvAPIKey      = "VENDOR_API_KEY"
	EnvBaseURL     = "VENDOR_BASE_URL"
	EnvWorkspaceID = "VENDOR_WORKSPACE_ID"
)

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

	// Shared, when set, is the pipeline of a client whose services are
	// being made (set only by the root package); a service made with it
	// shares the client's connections, credentials and settings.
	Shared any

	Credentials auth.Credentials
	// Version is the API version the call is sent with ("" sends no
	// header); requests are checked locally by its rules.
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
	// (SetQuery, EditJSON; edits.go).
	QueryEdits []QueryEdit
	BodyEdits  []BodyEdit
}

// SetBaseURL validates and stores the base URL.
func (c *Config) SetBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &apierror.ValidationError{Field: "base_url", Rule: "must be an absolute http or https URL"}
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return &apierror.ValidationError{Field: "base_url", Rule: "must not contain user info, a query or a fragment"}
	}
	c.baseURL = strings.TrimSuffix(u.Scheme+"://"+u.Host+u.EscapedPath(), "/")
	c.baseInsecure = u.Scheme == "http" && !IsLoopback(u.Hostname())
	return nil
}

// BaseURL is the validated base URL: scheme://host[/prefix], no trailing
// slash.
func (c *Config) BaseURL() string { return c.baseURL }

// BaseInsecure reports a base URL of plain HTTP to a host that is not
// loopback.
func (c *Config) BaseInsecure() bool { return c.baseInsecure }

// EnvCaptureContent turns content mode on (GenAI message content on spans).
const EnvCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

func captureContentFromEnv() bool {
	v, _ := strconv.ParseBool(os.Getenv(EnvCaptureContent))
	return v
}

// Default is the configuration before the environment and options apply.
func Default() Config {
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
