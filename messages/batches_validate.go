package messages

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// The platform's limits on a batch, checked before anything is sent.
const (
	MaxBatchRequests  = 100_000
	MaxBatchBodyBytes = 256_000_000 // 256 MB of JSON, the whole create body
	maxCustomIDLen    = 64
)

// maxBatchBody is MaxBatchBodyBytes, lowered by tests.
var maxBatchBody = MaxBatchBodyBytes

// batchBody is a batch's create body: checked by the rules of the call's
// API version, then encoded once, so that the size limit is checked on
// the JSON that is sent.
type batchBody struct {
	p    *BatchCreateParams
	data []byte
}

// CheckVersion checks the batch by the rules of API version v (each
// request follows the version the batch is created with) and encodes it.
func (b *batchBody) CheckVersion(v string) error {
	data, err := b.p.encode(v)
	b.data = data
	return err
}

func (b *batchBody) EncodedJSON() []byte { return b.data }

// encode checks p by the rules of API version v and returns the create
// body.
func (p *BatchCreateParams) encode(v string) ([]byte, error) {
	if err := p.validate(v); err != nil {
		return nil, err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	if len(data) > maxBatchBody {
		return nil, &apierror.ValidationError{Field: "requests",
			Rule: "must be at most " + strconv.Itoa(maxBatchBody) + " bytes of JSON in all, got " + strconv.Itoa(len(data))}
	}
	return data, nil
}

// validate checks the count, each custom_id and each request's params, by
// the rules of API version v.
func (p *BatchCreateParams) validate(v string) error {
	switch n := len(p.Requests); {
	case n == 0:
		return &apierror.ValidationError{Field: "requests", Rule: "must have at least 1 request"}
	case n > MaxBatchRequests:
		return &apierror.ValidationError{Field: "requests",
			Rule: "must have at most " + strconv.Itoa(MaxBatchRequests) + " requests, got " + strconv.Itoa(n)}
	}
	seen := make(map[string]int, len(p.Requests))
	for i := range p.Requests {
		r := &p.Requests[i]
		at := "requests." + strconv.Itoa(i) + "."
		if err := checkCustomID(r.CustomID); err != nil {
			return &apierror.ValidationError{Field: at + "custom_id", Rule: err.Error()}
		}
		if j, dup := seen[r.CustomID]; dup {
			return &apierror.ValidationError{Field: at + "custom_id",
				Rule: "must be unique within the batch: requests." + strconv.Itoa(j) + " has " + strconv.Quote(r.CustomID)}
		}
		seen[r.CustomID] = i
		if err := r.Params.validate(v); err != nil {
			var v *apierror.ValidationError
			if errors.As(err, &v) {
				return &apierror.ValidationError{Field: at + "params." + v.Field, Rule: v.Rule}
			}
			return err
		}
	}
	return nil
}

// checkCustomID checks a custom_id: 1 to 64 of [a-zA-Z0-9_-].
func checkCustomID(id string) error {
	if id == "" || len(id) > maxCustomIDLen {
		return errors.New("must be 1 to 64 characters, got " + strconv.Itoa(len(id)))
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return errors.New("must hold only letters, digits, '_' and '-', got " + strconv.QuoteRune(rune(c)) + " at byte " + strconv.Itoa(i))
		}
	}
	return nil
}

// betas are the beta values the batch's requests need, as Create would
// send them for each.
func (p *BatchCreateParams) betas() string {
	var vals []string
	for i := range p.Requests {
		r := &p.Requests[i].Params
		for v := range strings.SplitSeq(betas(r.Messages, r.MCPServers, r.Fallbacks), ",") {
			if v != "" && !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
	}
	return strings.Join(vals, ",")
}
