package messages

import (
	"encoding/json"
	"errors"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// BatchResult is the result of one request of a batch, one line of its
// results: BatchSucceeded, BatchErrored, BatchCanceled, BatchExpired, or
// BatchUnknown for a result type this SDK does not know. Each carries the
// request's custom_id. Its MarshalJSON writes the line back.
type BatchResult interface {
	// RequestCustomID is the custom_id of the request this is the result of.
	RequestCustomID() string
	batchResult()
}

// BatchSucceeded is a request that ran: Message is the model's answer, as
// Create would have returned it.
type BatchSucceeded struct {
	CustomID string
	Message  Message
}

// BatchErrored is a request that failed: an invalid request, or an error
// the model returned. Error is the API error the request would have
// answered with.
type BatchErrored struct {
	CustomID string
	Error    BatchError
}

// BatchError is the API's error body as a batch result holds it.
type BatchError struct {
	Type      apierror.Type // invalid_request_error, api_error, …
	Message   string
	RequestID string // "" when null
}

// BatchCanceled is a request the batch's cancellation stopped before it ran.
type BatchCanceled struct{ CustomID string }

// BatchExpired is a request the batch did not reach before it expired.
type BatchExpired struct{ CustomID string }

// BatchUnknown is a result of a type this SDK does not know; Result is
// its JSON as received.
type BatchUnknown struct {
	CustomID string
	Type     string
	Result   json.RawMessage
}

func (r BatchSucceeded) RequestCustomID() string { return r.CustomID }
func (r BatchErrored) RequestCustomID() string   { return r.CustomID }
func (r BatchCanceled) RequestCustomID() string  { return r.CustomID }
func (r BatchExpired) RequestCustomID() string   { return r.CustomID }
func (r BatchUnknown) RequestCustomID() string   { return r.CustomID }

func (BatchSucceeded) batchResult() {}
func (BatchErrored) batchResult()   {}
func (BatchCanceled) batchResult()  {}
func (BatchExpired) batchResult()   {}
func (BatchUnknown) batchResult()   {}

// resultLine is a line of the results.
type resultLine struct {
	CustomID string          `json:"custom_id"`
	Result   json.RawMessage `json:"result"`
}

// batchErrorJSON is BatchError on the wire.
type batchErrorJSON struct {
	Type  string `json:"type"` // "error"
	Error struct {
		Type    apierror.Type `json:"type"`
		Message string        `json:"message"`
	} `json:"error"`
	RequestID *string `json:"request_id"`
}

// lineWire is a line of the results as decodeBatchResult reads it: one
// pass over the line for the known result types.
type lineWire struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message *plainMessage   `json:"message"`
		Error   *batchErrorJSON `json:"error"`
	} `json:"result"`
}

// decodeBatchResult decodes one line of the results.
func decodeBatchResult(line []byte) (BatchResult, error) {
	var l lineWire
	if err := wire.Unmarshal(line, &l, unions); err != nil {
		return nil, err
	}
	switch res := &l.Result; res.Type {
	case "succeeded":
		if res.Message == nil {
			return nil, errors.New("a succeeded result has no message")
		}
		normalizeAll(res.Message.Extra)
		return BatchSucceeded{CustomID: l.CustomID, Message: Message(*res.Message)}, nil
	case "errored":
		if res.Error == nil {
			return nil, errors.New("an errored result has no error")
		}
		e := BatchError{Type: res.Error.Error.Type, Message: res.Error.Error.Message}
		if res.Error.RequestID != nil {
			e.RequestID = *res.Error.RequestID
		}
		return BatchErrored{CustomID: l.CustomID, Error: e}, nil
	case "canceled":
		return BatchCanceled{CustomID: l.CustomID}, nil
	case "expired":
		return BatchExpired{CustomID: l.CustomID}, nil
	}
	var raw resultLine // a type this SDK does not know: keep its JSON
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, err
	}
	return BatchUnknown{CustomID: l.CustomID, Type: l.Result.Type, Result: raw.Result}, nil
}

// The results write back as the lines they were read from (members the
// SDK does not know excepted, outside Message and BatchUnknown).

func (r BatchSucceeded) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		CustomID string `json:"custom_id"`
		Result   struct {
			Type    string  `json:"type"`
			Message Message `json:"message"`
		} `json:"result"`
	}{CustomID: r.CustomID, Result: struct {
		Type    string  `json:"type"`
		Message Message `json:"message"`
	}{"succeeded", r.Message}})
}

func (r BatchErrored) MarshalJSON() ([]byte, error) {
	e := batchErrorJSON{Type: "error"}
	e.Error.Type, e.Error.Message = r.Error.Type, r.Error.Message
	if r.Error.RequestID != "" {
		e.RequestID = &r.Error.RequestID
	}
	return json.Marshal(struct {
		CustomID string `json:"custom_id"`
		Result   struct {
			Type  string         `json:"type"`
			Error batchErrorJSON `json:"error"`
		} `json:"result"`
	}{CustomID: r.CustomID, Result: struct {
		Type  string         `json:"type"`
		Error batchErrorJSON `json:"error"`
	}{"errored", e}})
}

func (r BatchCanceled) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultLine{CustomID: r.CustomID, Result: json.RawMessage(`{"type":"canceled"}`)})
}

func (r BatchExpired) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultLine{CustomID: r.CustomID, Result: json.RawMessage(`{"type":"expired"}`)})
}

func (r BatchUnknown) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultLine{CustomID: r.CustomID, Result: r.Result})
}

// UnmarshalBatchResult decodes one line of a batch's results, as Results
// does: for results saved from a results file.
func UnmarshalBatchResult(line []byte) (BatchResult, error) { return decodeBatchResult(line) }
