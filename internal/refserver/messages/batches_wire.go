package messages

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The wire forms of Message Batches (docs/message-batches-wire.md).

// batchJSON is a batch as the API returns it. Unset times are null, not
// left out.
type batchJSON struct {
	ID                string          `json:"id"`
	Type              string          `json:"type"` // "message_batch"
	ProcessingStatus  string          `json:"processing_status"`
	RequestCounts     batchCountsJSON `json:"request_counts"`
	EndedAt           *kit.Timestamp  `json:"ended_at"`
	CreatedAt         kit.Timestamp   `json:"created_at"`
	ExpiresAt         kit.Timestamp   `json:"expires_at"`
	CancelInitiatedAt *kit.Timestamp  `json:"cancel_initiated_at"`
	ArchivedAt        *kit.Timestamp  `json:"archived_at"`
	ResultsURL        *string         `json:"results_url"`
}

type batchCountsJSON struct {
	Processing int `json:"processing"`
	Succeeded  int `json:"succeeded"`
	Errored    int `json:"errored"`
	Canceled   int `json:"canceled"`
	Expired    int `json:"expired"`
}

type deletedBatchJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"` // "message_batch_deleted"
}

// batchCreateJSON is the create body. Each request's params stay raw: they
// are validated when the request is processed, as POST /v1/messages would
// validate them, and a failure is that request's errored result.
type batchCreateJSON struct {
	Requests []struct {
		CustomID *string         `json:"custom_id"`
		Params   json.RawMessage `json:"params"`
	} `json:"requests"`
}

type succeededJSON struct {
	Type    string      `json:"type"` // "succeeded"
	Message messageJSON `json:"message"`
}

type erroredJSON struct {
	Type  string         `json:"type"` // "errored"
	Error batchErrorJSON `json:"error"`
}

// batchErrorJSON is the API's error body as a result carries it: no
// request of its own, so request_id is null.
type batchErrorJSON struct {
	Type      string          `json:"type"` // "error"
	Error     kit.ErrorDetail `json:"error"`
	RequestID *string         `json:"request_id"`
}

// The results of requests that never ran carry nothing but their type.
var (
	canceledResult = json.RawMessage(`{"type":"canceled"}`)
	expiredResult  = json.RawMessage(`{"type":"expired"}`)
)
