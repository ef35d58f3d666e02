package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// FillBatch creates, in workspace, a batch of n requests that has already
// ended, each request succeeded with the fake model's answer to text (one
// model run, copied with each request's own message id): a large batch
// for a test at once, without processing each request on the clock. Its
// custom ids are r0, r1, …; now is its creation and end.
func (s *Service) FillBatch(workspace string, n int, text string, now time.Time) (string, error) {
	if n < 1 || n > maxBatchRequests {
		return "", fmt.Errorf("refserver: FillBatch: n must be 1 to %d, got %d", maxBatchRequests, n)
	}
	params, err := json.Marshal(map[string]any{
		"model": "vendor-haiku-5-5", "max_tokens": 64,
		"messages": []map[string]string{{"role": "user", "content": text}},
	})
	if err != nil {
		return "", err
	}
	b := &batch{id: s.cfg.ids("msgbatch_"), workspace: workspace, created: now, expires: now.Add(batchLifetime), at: now}
	cost := batchRequestTime
	res, err := s.runBatchParams(b, params, &cost)
	if err != nil {
		return "", err
	}
	var head struct {
		Message struct {
			ID string `json:"id"`
		} `json:"message"`
	}
	if err := json.Unmarshal(res, &head); err != nil {
		return "", err
	}
	oldID := []byte(strconv.Quote(head.Message.ID))
	b.reqs = make([]batchRequest, n)
	b.lines = make([][]byte, n)
	for i := range n {
		id := "r" + strconv.Itoa(i)
		b.reqs[i].customID = id
		own := bytes.Replace(res, oldID, []byte(strconv.Quote(s.cfg.ids("msg_"))), 1)
		b.lines[i] = resultLine(id, own)
	}
	b.counts.Succeeded = n
	b.end(now)
	s.storeBatch(b)
	return b.id, nil
}
