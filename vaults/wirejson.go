package vaults

import "github.com/agentplatform/agentplatform-go/internal/wire"

// The JSON methods of the nested response types that have no other code:
// each writes its Extra members back (docs/wire-json.md).

type (
	plainTokenEndpointAuth TokenEndpointAuth
	plainProbe             Probe
	plainRefreshOutcome    RefreshOutcome
	plainHTTPResponse      HTTPResponse
)

// MarshalJSON writes the value as the API does.
func (a TokenEndpointAuth) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainTokenEndpointAuth(a))
}

// UnmarshalJSON decodes the value, keeping unknown members.
func (a *TokenEndpointAuth) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainTokenEndpointAuth)(a))
}

// MarshalJSON writes the value as the API does.
func (p Probe) MarshalJSON() ([]byte, error) { return wire.Marshal(plainProbe(p)) }

// UnmarshalJSON decodes the value, keeping unknown members.
func (p *Probe) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainProbe)(p)) }

// MarshalJSON writes the value as the API does.
func (r RefreshOutcome) MarshalJSON() ([]byte, error) { return wire.Marshal(plainRefreshOutcome(r)) }

// UnmarshalJSON decodes the value, keeping unknown members.
func (r *RefreshOutcome) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainRefreshOutcome)(r))
}

// MarshalJSON writes the value as the API does.
func (h HTTPResponse) MarshalJSON() ([]byte, error) { return wire.Marshal(plainHTTPResponse(h)) }

// UnmarshalJSON decodes the value, keeping unknown members.
func (h *HTTPResponse) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainHTTPResponse)(h))
}
