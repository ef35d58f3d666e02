package environments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON methods of the work queue's wire types, on the pattern of
// json.go. Heartbeat goes through heartbeatWire, which holds its TTL in
// whole seconds as the API sends it.

type (
	plainWork       Work
	plainWorkData   WorkData
	plainQueueStats QueueStats
)

type heartbeatWire struct {
	Type          string                     `json:"type"`
	LastHeartbeat string                     `json:"last_heartbeat"`
	LeaseExtended bool                       `json:"lease_extended"`
	State         WorkState                  `json:"state"`
	TTLSeconds    int64                      `json:"ttl_seconds"`
	Extra         map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes the work item as the API sends it, Extra included.
func (w Work) MarshalJSON() ([]byte, error) { return wire.Marshal(plainWork(w)) }

// UnmarshalJSON reads a work item.
func (w *Work) UnmarshalJSON(data []byte) error {
	*w = Work{}
	return wire.Unmarshal(data, (*plainWork)(w))
}

// MarshalJSON writes the work data as the API sends it, Extra included.
func (d WorkData) MarshalJSON() ([]byte, error) { return wire.Marshal(plainWorkData(d)) }

// UnmarshalJSON reads a work item's data; its "type" is kept in Type.
func (d *WorkData) UnmarshalJSON(data []byte) error {
	*d = WorkData{}
	return wire.Unmarshal(data, (*plainWorkData)(d))
}

// MarshalJSON writes the stats as the API sends them, Extra included.
func (s QueueStats) MarshalJSON() ([]byte, error) { return wire.Marshal(plainQueueStats(s)) }

// UnmarshalJSON reads queue stats.
func (s *QueueStats) UnmarshalJSON(data []byte) error {
	*s = QueueStats{}
	return wire.Unmarshal(data, (*plainQueueStats)(s))
}

// MarshalJSON writes the heartbeat as the API sends it, the TTL as
// ttl_seconds (whole seconds), Extra included.
func (h Heartbeat) MarshalJSON() ([]byte, error) {
	return wire.Marshal(heartbeatWire{
		Type: h.Type, LastHeartbeat: h.LastHeartbeat, LeaseExtended: h.LeaseExtended,
		State: h.State, TTLSeconds: int64(h.TTL / time.Second), Extra: h.Extra,
	})
}

// UnmarshalJSON reads a heartbeat answer.
func (h *Heartbeat) UnmarshalJSON(data []byte) error {
	var w heartbeatWire
	if err := wire.Unmarshal(data, &w); err != nil {
		return err
	}
	*h = Heartbeat{
		Type: w.Type, LastHeartbeat: w.LastHeartbeat, LeaseExtended: w.LeaseExtended,
		State: w.State, TTL: time.Duration(w.TTLSeconds) * time.Second, Extra: w.Extra,
	}
	return nil
}
