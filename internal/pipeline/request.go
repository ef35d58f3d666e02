package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/config"
)

// Request describes one API call. Resource services fill it in; the pipeline
// does the rest.
type Request struct {
	Method string
	Path   string // escaped, built with Path and Segment
	Query  Query
	// Body is marshalled to JSON (a json.RawMessage or an Encoded is sent
	// as it is); nil sends no body. An *Upload is streamed from its source
	// instead, on every attempt, never held in memory. A Body that is a
	// VersionChecker is checked first.
	Body   any
	Beta   string // the beta value(s) the endpoint requires, comma-separated, if any: the SDK sends them itself
	Route  string // path template, e.g. "/v1/models/{model_id}", for logs and spans; "" for a raw call
	Stream bool   // the response is an event stream: Accept text/event-stream
	// Download asks for the response's bytes (Accept
	// application/octet-stream): a successful body is returned unread,
	// neither buffered nor bound by the response size limit.
	Download bool
	// RetryOnlyUnsent limits retries to failures where the request was
	// surely not acted on: a 429, or no connection made (a dial error). A
	// call that must not run twice sets it when a timeout, a dropped
	// connection or a 5xx may follow a request the server performed.
	RetryOnlyUnsent bool

	// Op names the call's span, "vendor."+Op; empty means the name the
	// route implies (docs/tracing.md), e.g. "sessions.events.send".
	Op string
	// SessionID and ThreadID are the session and thread the call acts on,
	// for vendor.session.id and gen_ai.conversation.id.
	SessionID, ThreadID string
	// Annotate adds request attributes to a recording span; Result adds
	// response attributes from the decoded value (Do only). Both run only
	// when the span records.
	Annotate func(Span)
	Result   func(Span, any)

	err error // a refused path parameter, reported by send before anything is sent
}

// logRoute names the endpoint in logs: its route template, or the path of
// a raw call, which has none.
func (r *Request) logRoute() string {
	if r.Route == "" {
		return r.Path
	}
	return r.Route
}

// SpanAnnotator is a request Body that records its own request attributes,
// as Annotate does but without a closure allocated for every call, traced
// or not: the pipeline calls AnnotateSpan, after Annotate, only when the
// span records.
type SpanAnnotator interface{ AnnotateSpan(Span) }

// VersionChecker is a request Body that checks itself by the rules of the
// API version the call is sent with, the client's unless the call's
// options choose another ("" when no header is sent). send calls
// CheckVersion once the call's options are applied and before anything
// else: an error is returned as it is, with no span and nothing sent.
type VersionChecker interface{ CheckVersion(version string) error }

// Encoded is a request Body that encodes itself, typically in
// CheckVersion, when it must see its own JSON to check it (a size limit):
// EncodedJSON is sent as it is, as a json.RawMessage would be.
type Encoded interface{ EncodedJSON() []byte }

// NewRequest starts a Request for method and route. Path parameters are
// filled in order: each "{name}" in route takes the next value, escaped. An
// empty value is refused locally, naming the parameter.
func NewRequest(method, route string, params ...string) *Request {
	r := &Request{Method: method, Route: route}
	if len(params) == 0 {
		r.Path = route
		return r
	}
	var b strings.Builder
	b.Grow(len(route) + 32)
	rest := route
	for _, v := range params {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			r.err = fmt.Errorf("agentplatform: route %s has fewer parameters than given", route) // a service bug, caught by its tests
			return r
		}
		name := rest[open+1 : end]
		if v == "" && r.err == nil {
			r.err = &apierror.ValidationError{Field: name, Rule: "must not be empty"}
		}
		b.WriteString(rest[:open])
		b.WriteString(url.PathEscape(v))
		rest = rest[end+1:]
	}
	b.WriteString(rest)
	r.Path = b.String()
	return r
}

// Shared, never-modified header values: building them once per process saves
// an allocation per header per request.
var (
	userAgentValue   = []string{"agentplatform-go/" + Version + " (" + goVersion() + ")"}
	acceptJSON       = []string{"application/json"}
	acceptStream     = []string{"text/event-stream"}
	acceptBytes      = []string{"application/octet-stream"}
	contentTypeJSON  = []string{"application/json"}
	defaultVersionHV = []string{config.DefaultVersion}
)

// encodeQuery is the call's query: the endpoint's parameters, then the
// caller's (option.WithQuery, option.WithQueryAdd). A call without those
// options pays nothing more than the encoding.
func encodeQuery(cfg *Config, req *Request) string {
	q := req.Query.Encode()
	if len(cfg.QueryEdits) > 0 {
		q = editQuery(q, cfg.QueryEdits)
	}
	return q
}

// encodeBody is the call's JSON body, nil for none: req.Body marshalled
// (a json.RawMessage is taken as it is), then the caller's field edits
// (option.WithJSONSet, option.WithJSONDel). It runs once per call, before
// the call's span starts, so that a body that cannot be sent is refused
// locally, with nothing sent and no span; every attempt sends these bytes.
func encodeBody(cfg *Config, req *Request) ([]byte, error) {
	var b []byte
	switch v := req.Body.(type) {
	case nil:
	case *Upload:
		return nil, nil // not JSON, for the caller's edits to change
	case json.RawMessage:
		b = v
	case Encoded:
		b = v.EncodedJSON()
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("agentplatform: %s %s: encoding request body: %w", req.Method, req.Path, err)
		}
	}
	if len(cfg.BodyEdits) > 0 && (b != nil || req.Method == http.MethodPost) {
		return editBody(b, cfg.BodyEdits)
	}
	return b, nil
}

// buildRequest turns req into the first attempt's request, without
// credentials; query and body come from encodeQuery and encodeBody.
func buildRequest(ctx context.Context, cfg *Config, req *Request, query string, data []byte) (*retryablehttp.Request, error) {
	u := cfg.BaseURL() + req.Path
	if query != "" {
		u += "?" + query
	}
	var body any // untyped nil unless there is a body: a typed nil []byte would send an empty chunked body
	upload, _ := req.Body.(*Upload)
	if upload != nil {
		body = retryablehttp.ReaderFunc(upload.reader)
	} else if data != nil {
		body = data
	}
	rreq, err := retryablehttp.NewRequestWithContext(ctx, req.Method, u, body)
	if err != nil {
		return nil, fmt.Errorf("agentplatform: %s %s: %w", req.Method, req.Path, err)
	}
	h := rreq.Header
	h["User-Agent"] = userAgentValue
	switch {
	case req.Stream:
		h["Accept"] = acceptStream
	case req.Download:
		h["Accept"] = acceptBytes
	default:
		h["Accept"] = acceptJSON
	}
	if upload != nil {
		h["Content-Type"] = []string{upload.ContentType}
		if upload.Size > 0 {
			rreq.ContentLength = upload.Size // else 0, which a client request with a body sends chunked
		}
		// Without GetBody, net/http does not resend a body it has begun
		// to read (its own retry of an idempotent request on a dead
		// connection, a 307): the resend is the pipeline's, through
		// Upload.Rewind, which knows whether the source can go back.
		rreq.GetBody = nil
	} else if body != nil {
		h["Content-Type"] = contentTypeJSON
		if req.RetryOnlyUnsent {
			// net/http replays a request with an Idempotency-Key by itself
			// when a reused connection closes before any response, as after
			// a request the server performed: without GetBody it cannot.
			rreq.GetBody = nil
		}
	}
	if cfg.Version == config.DefaultVersion {
		h["Vendor-Version"] = defaultVersionHV
	} else if cfg.Version != "" {
		h["Vendor-Version"] = []string{cfg.Version}
	}
	if beta := joinBetas(req.Beta, cfg.Betas); beta != "" {
		h["Vendor-Beta"] = []string{beta}
	}
	if cfg.WorkspaceID != "" {
		h["Vendor-Workspace-Id"] = []string{cfg.WorkspaceID}
	}
	if req.Method == http.MethodPost && !req.Stream {
		// One key for every attempt of this call, so that a retry after a lost
		// response is recognised by the server and not performed twice. A
		// streamed response cannot be replayed, so streams carry none
		// (docs/messages-wire.md 1.2).
		h["Idempotency-Key"] = []string{rand.Text()}
	}
	for k, v := range cfg.Header {
		h[k] = v
	}
	return rreq, nil
}

// joinBetas merges the endpoint's beta values (one, or several
// comma-separated) with the caller's, in that order and without repeats, as
// one comma-separated header value.
func joinBetas(required string, extra []string) string {
	if len(extra) == 0 && !strings.Contains(required, ",") {
		return required // the common case costs nothing
	}
	vals := make([]string, 0, len(extra)+2)
	add := func(v string) {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" && !slices.Contains(vals, part) {
				vals = append(vals, part)
			}
		}
	}
	add(required)
	for _, v := range extra {
		add(v)
	}
	return strings.Join(vals, ",")
}
