package kit

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// CreatedWindow is the created_at[gt|gte|lt|lte] filter of the session,
// session event and deployment run lists; zero bounds are open.
type CreatedWindow struct{ gt, gte, lt, lte time.Time }

// ParseCreatedWindow reads the four bounds (RFC 3339) from q.
func ParseCreatedWindow(q url.Values) (CreatedWindow, error) {
	var w CreatedWindow
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"created_at[gt]", &w.gt}, {"created_at[gte]", &w.gte}, {"created_at[lt]", &w.lt}, {"created_at[lte]", &w.lte}} {
		raw, ok := QueryValue(q, p.name)
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			return w, InvalidField(p.name, "must be an RFC 3339 timestamp")
		}
		*p.dst = t
	}
	return w, nil
}

// Contains reports whether t lies inside every bound that is set.
func (w CreatedWindow) Contains(t time.Time) bool {
	return (w.gt.IsZero() || t.After(w.gt)) && (w.gte.IsZero() || !t.Before(w.gte)) &&
		(w.lt.IsZero() || t.Before(w.lt)) && (w.lte.IsZero() || !t.After(w.lte))
}

// Key identifies the window in a cursor.
func (w CreatedWindow) Key() string {
	parts := make([]string, 4)
	for i, t := range []time.Time{w.gt, w.gte, w.lt, w.lte} {
		if !t.IsZero() {
			parts[i] = strconv.FormatInt(t.UnixNano(), 10)
		}
	}
	return strings.Join(parts, ",")
}
