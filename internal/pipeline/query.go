package pipeline

import (
	"net/url"
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Query builds a URL query without reflection. Keys are written as given
// (they are the SDK's own and may carry brackets, as in "created_at[gte]",
// which the API reads literally: docs/api-choices.md, "Query encoding");
// values are escaped. Zero values are left
// out, since every query parameter of the API is optional and its zero value
// means "the default".
type Query struct{ buf []byte }

func (q *Query) add(key, value string) {
	if len(q.buf) > 0 {
		q.buf = append(q.buf, '&')
	}
	q.buf = append(q.buf, key...)
	q.buf = append(q.buf, '=')
	q.buf = append(q.buf, url.QueryEscape(value)...)
}

// String adds key=v unless v is empty.
func (q *Query) String(key, v string) {
	if v != "" {
		q.add(key, v)
	}
}

// Int adds key=v unless v is zero.
func (q *Query) Int(key string, v int) {
	if v != 0 {
		q.add(key, strconv.Itoa(v))
	}
}

// Bool adds key=true when v is true.
func (q *Query) Bool(key string, v bool) {
	if v {
		q.add(key, "true")
	}
}

// Time adds key=<RFC 3339 timestamp> unless t is zero.
func (q *Query) Time(key string, t time.Time) {
	if !t.IsZero() {
		q.add(key, t.Format(time.RFC3339Nano))
	}
}

// Strings adds key=v once per value: a repeatable parameter.
func (q *Query) Strings(key string, vs []string) {
	for _, v := range vs {
		q.add(key, v)
	}
}

// Encode returns the query without the leading "?".
func (q *Query) Encode() string { return string(q.buf) }

// IDPage validates and adds the parameters of an id-paginated list
// (docs/api-choices.md, "Pagination"): after_id and before_id, which
// exclude each other, and limit.
func (q *Query) IDPage(afterID, beforeID string, limit, maxLimit int) error {
	if afterID != "" && beforeID != "" {
		return &apierror.ValidationError{Field: "after_id", Rule: "cannot be combined with before_id"}
	}
	if err := check.Limit(limit, maxLimit); err != nil {
		return err
	}
	q.String("after_id", afterID)
	q.String("before_id", beforeID)
	q.Int("limit", limit)
	return nil
}

// CursorPage validates and adds the parameters of a cursor-paginated list.
func (q *Query) CursorPage(page string, limit, maxLimit int) error {
	if err := check.Limit(limit, maxLimit); err != nil {
		return err
	}
	q.String("page", page)
	q.Int("limit", limit)
	return nil
}
