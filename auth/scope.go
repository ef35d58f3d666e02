package auth

import (
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Routes a device attestation token may call: its scope, workspace:messages
// (docs/auth-wire.md 1.4).
var messagesRoutes = [...]string{"/v1/messages", "/v1/messages/count_tokens"}

// ScopeError is the local refusal of a request that device attestation
// credentials may not authorize. Nothing was sent. errors.Is(err,
// apierror.ErrPermission) holds, as for the server's 403.
type ScopeError struct {
	Method string
	Path   string
}

func (e *ScopeError) Error() string {
	return "auth: device attestation credentials authorize only POST /v1/messages and " +
		"POST /v1/messages/count_tokens; " + e.Method + " " + e.Path + " was not sent"
}

// Is makes errors.Is(err, apierror.ErrPermission) true.
func (e *ScopeError) Is(target error) bool { return target == apierror.ErrPermission }

// inScope reports whether req is a Messages call.
func (d *device) inScope(req *http.Request) bool {
	if req.Method != http.MethodPost || req.URL == nil {
		return false
	}
	p := req.URL.Path
	if d.basePath != "" {
		rest, ok := strings.CutPrefix(p, d.basePath)
		if !ok {
			return false
		}
		p = rest
	}
	for _, r := range messagesRoutes {
		if p == r {
			return true
		}
	}
	return false
}
