package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/option"
)

// Raw calls (agentplatform.Client.Execute and ExecuteStream) reach an
// endpoint the SDK does not know yet, through the same pipeline as every
// other call: credentials, headers, retries, tracing, typed errors and the
// response size limit.

// RawOp is the operation of every raw call: its span is "vendor.request",
// whatever the path. The path holds ids that cannot be told apart from
// names, so a name derived from it would give unknown endpoints one span
// name per object; the path is on the span as url.path, and http.route is
// absent, since no route template is known.
const RawOp = "request"

// NewRawRequest starts the Request of a raw call. method is an upper-case
// HTTP method; path is relative to the base URL, already escaped, and is
// checked: it starts with "/", has no empty, "." or ".." segment, and no
// query or fragment (the query comes from option.WithQuery). body is sent
// as JSON: nil sends none, a json.RawMessage or []byte is sent as it is
// (it must be valid JSON; empty sends none), anything else is marshalled
// with encoding/json. A refusal is reported by the call, before anything
// is sent.
func NewRawRequest(method, path string, body any) *Request {
	r := &Request{Method: method, Path: path, Op: RawOp}
	if err := checkMethod(method); err != nil {
		r.err = err
		return r
	}
	if err := checkRawPath(path); err != nil {
		r.err = err
		return r
	}
	switch b := body.(type) {
	case []byte:
		body = json.RawMessage(b)
	case io.Reader:
		r.err = &apierror.ValidationError{Field: "body", Rule: "must be JSON: pass []byte or json.RawMessage for encoded JSON, not an io.Reader"}
		return r
	}
	if raw, ok := body.(json.RawMessage); ok {
		switch {
		case len(raw) == 0:
			body = nil
		case !json.Valid(raw):
			r.err = &apierror.ValidationError{Field: "body", Rule: "must be valid JSON"}
			return r
		}
	}
	r.Body = body
	return r
}

// checkMethod accepts an upper-case method token: GET, POST, DELETE, …
// Lower case is refused rather than sent, since methods are
// case-sensitive and "post" would miss the Idempotency-Key of a POST.
func checkMethod(m string) error {
	if m == "" {
		return &apierror.ValidationError{Field: "method", Rule: "must not be empty"}
	}
	for i := 0; i < len(m); i++ {
		if c := m[i]; c < 'A' || c > 'Z' {
			return &apierror.ValidationError{Field: "method", Rule: "must be an upper-case HTTP method such as GET or POST"}
		}
	}
	return nil
}

// checkRawPath checks a raw call's path; see NewRawRequest.
func checkRawPath(path string) error {
	if !strings.HasPrefix(path, "/") {
		return &apierror.ValidationError{Field: "path", Rule: `must start with "/" and be relative to the base URL, such as "/v1/models"`}
	}
	if strings.ContainsAny(path, "?#") {
		return &apierror.ValidationError{Field: "path", Rule: "must not contain a query or a fragment: send query parameters with option.WithQuery"}
	}
	for seg := range strings.SplitSeq(path[1:], "/") {
		if seg == "" {
			return &apierror.ValidationError{Field: "path", Rule: `must not contain an empty segment ("//", or a trailing "/"): is an id empty?`}
		}
		if !escapedSegment(seg) {
			return &apierror.ValidationError{Field: "path", Rule: "must be escaped: escape each segment with url.PathEscape"}
		}
		if dec, err := url.PathUnescape(seg); err != nil || dec == "." || dec == ".." {
			return &apierror.ValidationError{Field: "path", Rule: `must not contain a "." or ".." segment`}
		}
	}
	return nil
}

// escapedSegment reports whether seg holds only what an escaped path
// segment may: unreserved characters, sub-delimiters, ':', '@' and
// percent-escapes (RFC 3986, pchar).
func escapedSegment(seg string) bool {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0:
		case c == '%':
			if i+2 >= len(seg) || !isHex(seg[i+1]) || !isHex(seg[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Into sends req and decodes a successful body into out: nil discards
// it, a *[]byte receives it as it is (a copy), any other pointer is
// decoded from JSON. An empty body (204 No Content) leaves out as it was;
// a JSON null decodes as encoding/json decodes it. out must be nil or a
// non-nil pointer, which is checked before anything is sent.
func Into(ctx context.Context, p *Pipeline, req *Request, out any, opts []option.Option) error {
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return &apierror.ValidationError{Field: "result", Rule: "must be nil or a non-nil pointer"}
		}
	}
	resp, span, err := p.send(ctx, req, opts)
	if err != nil {
		return err
	}
	err = decodeInto(req, resp, out)
	span.End(ctx, err)
	return err
}

// decodeInto is Into's decoding of resp's body; it closes the body.
func decodeInto(req *Request, resp *http.Response, out any) error {
	if out == nil {
		return resp.Body.Close()
	}
	b, err := buffered(req, resp)
	if err != nil {
		return err
	}
	defer b.Close()
	data := b.bytes()
	if dst, ok := out.(*[]byte); ok {
		*dst = bytes.Clone(data)
		return nil
	}
	if jsonKind(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return apierror.MalformedResponse(req.Method, req.Path, resp.StatusCode, resp.Header, data, err)
	}
	return nil
}

// RawStream sends req as an event stream and returns the response, its
// body unread: closing it ends the call's span (docs/tracing.md: OK once
// read to its end, unset when closed before, ERROR when a read failed).
func RawStream(ctx context.Context, p *Pipeline, req *Request, opts []option.Option) (*http.Response, error) {
	resp, span, err := Stream(ctx, p, req, opts)
	if err != nil {
		return nil, err
	}
	resp.Body = NewTracedBody(ctx, resp.Body, span)
	return resp, nil
}

// Download sends req for a response's bytes and returns the response, its
// body unread and not bound by the response size limit: the caller streams
// it and closes it, which ends the call's span (OK once read to its end,
// unset when closed before, ERROR when a read failed) with
// http.response.body.size, the bytes read. Retries cover only getting the
// response headers.
func Download(ctx context.Context, p *Pipeline, req *Request, opts []option.Option) (*http.Response, error) {
	req.Download = true
	resp, span, err := p.send(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	body := NewTracedBody(ctx, resp.Body, span)
	body.size = true
	resp.Body = body
	return resp, nil
}
