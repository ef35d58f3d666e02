package messages

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The wire types of Message Batches (docs/message-batches-wire.md).

// BatchProcessingStatus is where a batch is in its life. Unknown values
// are kept.
type BatchProcessingStatus string

const (
	BatchInProgress BatchProcessingStatus = "in_progress"
	BatchCanceling  BatchProcessingStatus = "canceling"
	BatchEnded      BatchProcessingStatus = "ended"
)

// Batch is a message batch: many Messages requests processed
// asynchronously, whose results are read with BatchesService.Results once
// it has ended.
type Batch struct {
	ID               string                `json:"id"`   // msgbatch_…
	Type             string                `json:"type"` // "message_batch"
	ProcessingStatus BatchProcessingStatus `json:"processing_status"`
	RequestCounts    BatchRequestCounts    `json:"request_counts"`
	CreatedAt        time.Time             `json:"created_at"`
	// ExpiresAt is when processing stops, 24 hours after creation: the
	// requests not processed by then expire.
	ExpiresAt time.Time `json:"expires_at"`
	// The times below are zero until they happen (null on the wire).
	EndedAt           time.Time `json:"ended_at,omitzero"`
	CancelInitiatedAt time.Time `json:"cancel_initiated_at,omitzero"`
	ArchivedAt        time.Time `json:"archived_at,omitzero"`
	// ResultsURL is where the results are, once the batch has ended; read
	// them with BatchesService.Results.
	ResultsURL string `json:"results_url,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// BatchRequestCounts counts a batch's requests by state. Processing falls
// to zero when the batch ends; the others sum to the batch's requests then.
type BatchRequestCounts struct {
	Processing int                        `json:"processing"`
	Succeeded  int                        `json:"succeeded"`
	Errored    int                        `json:"errored"`
	Canceled   int                        `json:"canceled"`
	Expired    int                        `json:"expired"`
	Extra      map[string]json.RawMessage `json:",embed"`
}

// DeletedBatch is the answer of BatchesService.Delete.
type DeletedBatch struct {
	ID    string                     `json:"id"`
	Type  string                     `json:"type"` // "message_batch_deleted"
	Extra map[string]json.RawMessage `json:",embed"`
}

// BatchCreateParams are the requests of a new batch.
type BatchCreateParams struct {
	// Requests are at most 100,000, with at most 256 MB of JSON in all.
	Requests []BatchRequest `json:"requests"`
}

// BatchRequest is one Messages request of a batch.
type BatchRequest struct {
	// CustomID names the request's result: 1 to 64 letters, digits, '_'
	// or '-', unique within the batch. Results are not in request order:
	// match them by CustomID.
	CustomID string `json:"custom_id"`
	// Params are what Create would take; they are checked as Create
	// checks them. A batch request cannot stream.
	Params MessageParams `json:"-"`
}

// MarshalJSON writes the request with its params as Create sends them.
func (r BatchRequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		CustomID string `json:"custom_id"`
		Params   body   `json:"params"`
	}{r.CustomID, body{p: &r.Params}})
}

// BatchListParams selects a page of batches, newest first.
type BatchListParams struct {
	AfterID  string // the page after this batch (a page's LastID)
	BeforeID string // the page before this batch (a page's FirstID)
	Limit    int    // 1 to 1000; 0 means 20
}

type (
	plainBatch              Batch
	plainBatchRequestCounts BatchRequestCounts
	plainDeletedBatch       DeletedBatch
)

func (b Batch) MarshalJSON() ([]byte, error) { return wire.Marshal(plainBatch(b), apiTimes) }
func (b *Batch) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainBatch)(b), &b.Extra)
}

func (c BatchRequestCounts) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainBatchRequestCounts(c))
}
func (c *BatchRequestCounts) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainBatchRequestCounts)(c), &c.Extra)
}

func (d DeletedBatch) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDeletedBatch(d)) }
func (d *DeletedBatch) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainDeletedBatch)(d), &d.Extra)
}
