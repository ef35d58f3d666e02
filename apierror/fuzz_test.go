package apierror_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
)

// maxServerText is what Error may take from the server: the type, message
// and request id, 1 KiB each plus "…", and the fixed words around them.
const maxServerText = 3*(1024+len("…")) + 64

// isErrorBody reports whether body is the API's JSON error body, one that
// names an error type.
func isErrorBody(body []byte) bool {
	var w struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &w) == nil && w.Error.Type != ""
}

// FuzzErrorBody checks the errors built from error responses and from the
// error events of streams, for any status, headers and body (an HTML page,
// truncated JSON, a huge message):
//
//   - they never panic and always give an *apierror.Error, reachable with
//     errors.As through wrapping, that keeps the status and the raw body;
//   - Error() is bounded: at most 1 KiB each of type, message and request
//     id, whatever the body's size;
//   - for a body that is not a JSON error body, Error() depends only on the
//     status, the headers and the body's length, so it never quotes the
//     body;
//   - a JSON error body gives its type and message.
func FuzzErrorBody(f *testing.F) {
	for _, seed := range []struct {
		status           int
		contentType, rid string
		body             string
	}{
		{429, "application/json", "req_header", `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"},"request_id":"req_body"}`},
		{529, "application/json", "", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_01Vf5kQ2nJ8wYc3Hd7Rs6Tpb"}`},
		{400, "application/json", "req_1", `{"type":"error","error":{"type":"invalid_request_error","message":"schedule.expression: must have exactly 5 fields"}}`},
		{400, "application/json", "", `{"type":"error","error":{"type":"quota_exceeded_error","message":"m"}}`},
		{502, "text/html", "req_h", "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"},
		{503, "", "", ""},
		{529, "text/plain", "", "overloaded"},
		{404, "application/json", "", `{"unexpected":"shape"}`},
		{401, "application/json", "", `{"type":"error","error":{"type":"","message":""}}`},
		{500, "application/json", "", `{"type":"error","error":{"type":"api_error","message":"Internal`},
		{418, "", "", "teapot"},
		{0, "", "", "null"},
		{-1, "", "", `{"error":{"type":"x","message":"\u00e9\ud800"}}`},
		{999, "application/json", strings.Repeat("r", 5000), `{"error":{"type":"` + strings.Repeat("t", 3000) + `","message":"` + strings.Repeat("é", 5000) + `"},"request_id":"` + strings.Repeat("q", 2000) + `"}`},
		{413, "text/html", "", strings.Repeat("<p>request too large</p>", 3000)},
	} {
		f.Add(seed.status, seed.contentType, seed.rid, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, status int, contentType, rid string, body []byte) {
		header := http.Header{}
		if contentType != "" {
			header.Set("Content-Type", contentType)
		}
		if rid != "" {
			header.Set("Request-Id", rid)
		}
		const method, path = "POST", "/v1/sessions/sesn_1/events"
		errorBody := isErrorBody(body)

		e := apierr.FromResponse(method, path, status, header, body)
		check(t, e, body, len(method)+len(path))
		if e.StatusCode != status {
			t.Fatalf("status %d, want %d", e.StatusCode, status)
		}
		if !errorBody {
			other := apierr.FromResponse(method, path, status, header, bytes.Repeat([]byte{0}, len(body)))
			if e.Error() != other.Error() {
				t.Fatalf("the error string of a non-error body depends on its content:\n%s\n%s", e.Error(), other.Error())
			}
		}

		s := apierr.FromStreamEvent(method, path, body)
		check(t, s, body, len(method)+len(path))
		if !errorBody && s.Error() != apierr.FromStreamEvent(method, path, nil).Error() {
			t.Fatalf("the error string of a malformed error event depends on its content: %s", s.Error())
		}
	})
}

// check holds for every error built from body.
func check(t *testing.T, e *apierror.Error, body []byte, fixed int) {
	t.Helper()
	var got *apierror.Error
	if e == nil || !errors.As(fmt.Errorf("calling: %w", e), &got) || got != e {
		t.Fatalf("no *apierror.Error through wrapping: %#v", e)
	}
	if !bytes.Equal(e.Body, body) {
		t.Fatal("the raw body is not kept")
	}
	msg := e.Error()
	if len(msg) > fixed+maxServerText {
		t.Fatalf("error string of %d bytes", len(msg))
	}
	if isErrorBody(body) {
		var w struct {
			Error struct{ Type, Message string } `json:"error"`
		}
		_ = json.Unmarshal(body, &w)
		if string(e.Type) != w.Error.Type || e.Message != w.Error.Message {
			t.Fatalf("error body read as type %q message %q, want %q %q", e.Type, e.Message, w.Error.Type, w.Error.Message)
		}
	}
}
