package refserver

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// RecordedRequest is one request as the server received it, with
// credentials redacted.
type RecordedRequest = kit.RecordedRequest

// Requests returns copies of the recorded requests, oldest first.
func (s *Server) Requests() []RecordedRequest { return s.requests.List() }

// ResetRequests empties the request log.
func (s *Server) ResetRequests() { s.requests.Reset() }
