package option

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/apiversion"
	"github.com/agentplatform/agentplatform-go/internal/config"
)

// Option configures a client (agentplatform.NewClient), a service made on
// its own (agents.NewService and the like), or one call. The constructors
// in this package are the only way to make one.
type Option func(*config.Config) error

// Middleware sees every attempt of every request, retries included, with
// credentials already applied, and calls next to send it on:
//
//	logTimes := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
//		start := time.Now()
//		resp, err := next(req)
//		log.Printf("%s %s: %s", req.Method, req.URL.Path, time.Since(start))
//		return resp, err
//	}
//	client, err := agentplatform.NewClient(option.WithMiddleware(logTimes))
type Middleware = func(req *http.Request, next MiddlewareNext) (*http.Response, error)

// MiddlewareNext sends an attempt on to the next middleware or the transport.
type MiddlewareNext = func(req *http.Request) (*http.Response, error)

// WithBaseURL sets the API's base URL, for example a regional endpoint or a
// reference server ("http://127.0.0.1:8080"). The default is
// https://api.vendor.com, or VENDOR_BASE_URL when set.
func WithBaseURL(u string) Option {
	return func(c *config.Config) error { return c.SetBaseURL(u) }
}

// WithAPIKey sends key as "Authorization: Bearer <key>". The default is
// VENDOR_API_KEY. To send it in the legacy x-api-key header instead, use
// WithCredentials(auth.XAPIKey(key)).
func WithAPIKey(key string) Option {
	return WithCredentials(auth.APIKey(key))
}

// WithCredentials sets the credentials source: an API key, workload identity
// federation, device attestation, or your own auth.Credentials.
func WithCredentials(creds auth.Credentials) Option {
	return func(c *config.Config) error {
		if creds == nil {
			return &apierror.ValidationError{Field: "credentials", Rule: "must not be nil"}
		}
		c.Credentials = creds
		return nil
	}
}

// The API versions this SDK knows (docs/api-versions.md says what differs).
const (
	// Version20230601 is the first version, and the SDK's default.
	Version20230601 = apiversion.V20230601
	// Version20261021 refuses the sampling parameters, documents directly
	// in assistant messages and citations on user text.
	Version20261021 = apiversion.V20261021
)

// WithVersion sets the API version, sent in the vendor-version header, for
// a client or for one call; the default is Version20230601. The SDK checks
// each request locally by the rules of the version it is sent with, before
// anything is sent. A well-formed version the SDK does not know yet is sent
// as given and checked by the newest rules the SDK knows. A value that is
// not a date (YYYY-MM-DD) is refused with an *apierror.ValidationError;
// "" sends no header at all, which the platform takes as 2023-06-01. See
// docs/api-versions.md.
func WithVersion(v string) Option {
	if v != "" && !apiversion.WellFormed(v) {
		err := &apierror.ValidationError{Field: "vendor-version",
			Rule: "must be a date, YYYY-MM-DD, such as " + Version20261021 + ", got " + strconv.Quote(v)}
		return func(*config.Config) error { return err }
	}
	return func(c *config.Config) error { c.Version = v; return nil }
}

// WithBeta adds values to the vendor-beta header. Endpoints that require a
// beta value send it themselves; use this for opt-in features, and for a
// raw call (Client.Execute) to an endpoint that requires one.
func WithBeta(values ...string) Option {
	return func(c *config.Config) error {
		for _, v := range values {
			if v == "" {
				return &apierror.ValidationError{Field: "vendor-beta", Rule: "values must not be empty"}
			}
		}
		c.Betas = append(slices.Clip(c.Betas), values...)
		return nil
	}
}

// WithWorkspaceID sends vendor-workspace-id, which selects the workspace a
// request runs in. A key not scoped to one workspace must send it on every
// request (docs/api-choices.md, "Workspace selection"). The default is
// VENDOR_WORKSPACE_ID.
func WithWorkspaceID(id string) Option {
	return func(c *config.Config) error { c.WorkspaceID = id; return nil }
}

// WithUserProfileID sends vendor-user-profile-id, which names the user
// profile a Messages, token-count or message-batch request is made on
// behalf of ("uprof_…"), for billing and review. Give it per call, or to a
// client that serves one user profile.
func WithUserProfileID(id string) Option {
	return func(c *config.Config) error {
		if id == "" {
			return &apierror.ValidationError{Field: "vendor-user-profile-id", Rule: "must not be empty"}
		}
		return WithHeader("vendor-user-profile-id", id)(c)
	}
}

// WithHTTPClient sends requests through hc's transport, redirect policy and
// cookie jar. Its Timeout is not used, since it would cut event streams off:
// set WithRequestTimeout instead. The default is a private transport per
// client, released by Client.Close.
//
// Before hc's CheckRedirect (or, without one, net/http's limit of 10
// hops), the SDK checks every redirect itself: a hop to another origin
// (scheme, host or port) loses every credential header (those the
// credentials set, Authorization, Proxy-Authorization, X-Api-Key, Cookie,
// and WithHeader headers whose names say they are secret), and is refused
// with an *apierror.RedirectError if it would re-send the request body
// (307, 308); a hop to plain HTTP on a host that is not loopback is
// refused unless WithInsecureHTTP was given.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config.Config) error {
		if hc == nil {
			return &apierror.ValidationError{Field: "http_client", Rule: "must not be nil"}
		}
		c.HTTPClient = hc
		return nil
	}
}

// WithMaxRetries sets how many times a failed request is retried (0 turns
// retries off). The default is 2.
func WithMaxRetries(n int) Option {
	return func(c *config.Config) error {
		if n < 0 {
			return &apierror.ValidationError{Field: "max_retries", Rule: "must not be negative"}
		}
		c.MaxRetries = n
		return nil
	}
}

// WithRequestTimeout limits each attempt of a request: connecting, sending,
// and reading the whole response (for an event stream, until its headers
// arrive). An attempt that times out, before or after the response headers,
// is retried like a connection error (a POST carries an Idempotency-Key, so
// the server does not perform it twice). The default is 10 minutes; 0 means
// no limit beyond the context's.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *config.Config) error {
		if d < 0 {
			return &apierror.ValidationError{Field: "request_timeout", Rule: "must not be negative"}
		}
		c.RequestTimeout = d
		return nil
	}
}

// WithMaxRetryWait caps the wait before a retry, including waits the server
// asks for with retry-after or retry-after-ms. The default is 60 seconds.
func WithMaxRetryWait(d time.Duration) Option {
	return func(c *config.Config) error {
		if d < 0 {
			return &apierror.ValidationError{Field: "max_retry_wait", Rule: "must not be negative"}
		}
		c.MaxRetryWait = d
		return nil
	}
}

// WithMaxResponseSize limits the size of a response body, which the SDK
// reads in full before decoding it (an event stream's body is not
// limited). A larger body fails the call, without being read further or
// retried, with an *apierror.ResponseError that matches
// apierror.ErrResponseTooLarge. The default is 64 MiB; n must be positive.
func WithMaxResponseSize(n int64) Option {
	return func(c *config.Config) error {
		if n <= 0 {
			return &apierror.ValidationError{Field: "max_response_size", Rule: "must be positive"}
		}
		c.MaxResponseSize = n
		return nil
	}
}

// WithHeader sets an extra request header, replacing any value the SDK would
// send for it.
func WithHeader(key, value string) Option {
	return func(c *config.Config) error {
		if key == "" {
			return &apierror.ValidationError{Field: "header", Rule: "name must not be empty"}
		}
		h := c.Header.Clone()
		if h == nil {
			h = http.Header{}
		}
		h.Set(key, value)
		c.Header = h
		return nil
	}
}

// WithLogger logs each attempt, its response and each retry at debug level.
// Credentials in headers are always redacted. A request body holds prompts
// and tool input, so it is logged only in content mode (WithContentCapture),
// with its secret fields redacted; otherwise the log gives its size. Logging
// is off by default.
func WithLogger(l *slog.Logger) Option {
	return func(c *config.Config) error { c.Logger = l; return nil }
}

// WithMiddleware adds middleware, outermost first.
func WithMiddleware(mw ...Middleware) Option {
	return func(c *config.Config) error {
		for _, m := range mw {
			if m == nil {
				return &apierror.ValidationError{Field: "middleware", Rule: "must not be nil"}
			}
		}
		c.Middleware = append(slices.Clip(c.Middleware), mw...)
		return nil
	}
}

// WithResponseInto stores the final attempt's *http.Response in *dst, for its
// status and headers (request-id, vendor-workspace-id). Its body has already
// been read and closed.
func WithResponseInto(dst **http.Response) Option {
	return func(c *config.Config) error {
		if dst == nil {
			return &apierror.ValidationError{Field: "response_into", Rule: "must not be nil"}
		}
		c.ResponseInto = dst
		return nil
	}
}

// WithInsecureHTTP allows credentials to be sent over plain HTTP to a host
// that is not loopback. Without it such calls are refused before anything is
// sent, and so is a redirect to plain HTTP on such a host, both with an
// error that matches apierror.ErrInsecureHTTP.
func WithInsecureHTTP() Option {
	return func(c *config.Config) error { c.AllowInsecure = true; return nil }
}

// WithTracerProvider sends the SDK's spans (docs/tracing.md) to tp. The
// default is the global provider (otel.GetTracerProvider), which records
// nothing until the application sets one; then tracing costs one no-op
// span per call.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config.Config) error {
		if tp == nil {
			return &apierror.ValidationError{Field: "tracer_provider", Rule: "must not be nil"}
		}
		c.TracerProvider = tp
		return nil
	}
}

// WithPropagator sets how trace context is written into request headers.
// The default is the global propagator, or W3C trace context when the
// application has set none: requests always carry traceparent when there
// is a trace to continue.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config.Config) error {
		if p == nil {
			return &apierror.ValidationError{Field: "propagator", Rule: "must not be nil"}
		}
		c.Propagator = p
		return nil
	}
}

// WithContentCapture turns content mode on or off: prompts, outputs, system
// instructions and tool arguments recorded on spans as GenAI messages. It
// is off by default, or on when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
// is true. Credentials are never recorded either way.
func WithContentCapture(on bool) Option {
	return func(c *config.Config) error { c.CaptureContent = on; return nil }
}

// WithConversationID sets gen_ai.conversation.id on the call's spans,
// replacing the thread id the SDK would record.
func WithConversationID(id string) Option {
	return func(c *config.Config) error { c.ConversationID = id; return nil }
}

// WithQuery sends the query parameter key=value, replacing any value the
// SDK (or an earlier WithQuery) would send for key: a parameter the SDK
// does not know yet, or a different value for one it sends. key is sent
// escaped, brackets aside ("created_at[gte]"); value is escaped. A method
// that sends several requests sends it on each: on All, every page's
// request, so it must not name the cursor parameters (page, after_id,
// before_id).
func WithQuery(key, value string) Option {
	return func(c *config.Config) error { return c.SetQuery(key, value, false) }
}

// WithQueryAdd sends the query parameter key=value in addition to the
// values already sent for key: a repeatable parameter, given once per
// value.
func WithQueryAdd(key, value string) Option {
	return func(c *config.Config) error { return c.SetQuery(key, value, true) }
}

// WithJSONSet sets a field of the JSON request body to value, encoded
// with encoding/json when the option is made, replacing any value the SDK
// would send for it: a field the SDK does not know yet, or a different
// value for one it sends. path names a top-level field ("speed") or a
// nested one, dotted ("output_config.effort"): missing objects on the way
// are created; a number picks an element of an array the body already has
// ("messages.0.content"). A backslash escapes a dot or backslash that is
// part of a key (`tags.team\.name`).
//
// The body must be a JSON object; a POST without a body gets one holding
// only the fields set, and a call of another method without a body (a
// GET, a DELETE) is left without one. Any other case (a body that is an
// array, a path through a string, an index the array does not have) fails
// the call before anything is sent with an *apierror.ValidationError whose
// Field is "option.WithJSONSet". Edits apply in the order given, after the
// SDK has built the body, to every request the method sends with one. A
// json.RawMessage value is sent as it is. Span attributes still describe
// the SDK's own parameters.
func WithJSONSet(path string, value any) Option {
	raw, err := json.Marshal(value)
	return func(c *config.Config) error {
		if err != nil {
			return &apierror.ValidationError{Field: "option.WithJSONSet", Rule: fmt.Sprintf("%q: the value cannot be encoded: %v", path, err)}
		}
		return c.EditJSON("option.WithJSONSet", path, raw)
	}
}

// WithJSONDel deletes a field from the JSON request body, a field the SDK
// sends that the server should not see; path is as in WithJSONSet, and a
// field that is not there is no error. An index deletes the array's
// element.
func WithJSONDel(path string) Option {
	return func(c *config.Config) error { return c.EditJSON("option.WithJSONDel", path, nil) }
}
