package pipeline

import (
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// sdkKey is the shape of the SDK's own query keys ("limit",
// "created_at[gte]", "event_deltas[]"), which Query writes as given.
var sdkKey = regexp.MustCompile(`^[A-Za-z0-9_.\[\]-]{1,64}$`)

// FuzzQuery checks query encoding: for any values (and any key of the
// SDK's shape), Encode never panics and net/url parses its output back to
// the same keys, with the same values in the same order; zero values are
// left out; a time reads back as the same instant; and the pagination
// helpers accept exactly the parameters their rules allow.
func FuzzQuery(f *testing.F) {
	for _, seed := range []struct {
		key, value string
		n          int
		b          bool
		sec, nsec  int64
		list       string
		after      string
		before     string
		limit, max int
	}{
		{"page", "page_a+b/c", 0, false, 1767322845, 0, "agent.message,agent.thinking", "", "", 0, 100},
		{"created_at[gte]", "x", 20, true, 0, 0, "", "sevt_1", "", 20, 100},
		{"event_deltas[]", "a&b=c;d", -3, true, 1767322845, 123456789, "a,,b", "", "sevt_2", 1001, 1000},
		{"statuses", "é\x00\xff %20+", 1 << 40, false, -62135596800, 1, ",", "a", "b", -1, 10},
		{"order", "", 1, true, 253402300799, 999999999, "\n,\r", "", "", 100, 100},
		{"has error", "v", 1, true, 253402300800, 0, "", "", "", 0, 0},
	} {
		f.Add(seed.key, seed.value, seed.n, seed.b, seed.sec, seed.nsec, seed.list, seed.after, seed.before, seed.limit, seed.max)
	}
	f.Fuzz(func(t *testing.T, key, value string, n int, b bool, sec, nsec int64, list, after, before string, limit, max int) {
		if !sdkKey.MatchString(key) {
			key = "page" // keys are the SDK's own, never the caller's
		}
		ts := time.Unix(sec, nsec%int64(time.Second)).UTC()
		var values []string
		if list != "" {
			values = strings.Split(list, ",")
		}

		var q Query
		want := url.Values{}
		q.String(key, value)
		if value != "" {
			want.Add(key, value)
		}
		q.Int("limit", n)
		if n != 0 {
			want.Add("limit", strconv.Itoa(n))
		}
		q.Bool("include_archived", b)
		if b {
			want.Add("include_archived", "true")
		}
		q.Time("created_at[gte]", ts)
		if !ts.IsZero() {
			want.Add("created_at[gte]", ts.Format(time.RFC3339Nano))
		}
		q.Strings("event_deltas[]", values)
		for _, v := range values {
			want.Add("event_deltas[]", v)
		}
		checkQuery(t, q.Encode(), want)

		if y := ts.Year(); !ts.IsZero() && y >= 0 && y <= 9999 {
			back, err := time.Parse(time.RFC3339Nano, ts.Format(time.RFC3339Nano))
			if err != nil || !back.Equal(ts) {
				t.Fatalf("time %v reads back as %v (%v)", ts, back, err)
			}
		}

		// Pagination: after_id and before_id exclude each other, and the
		// limit is 0 (the default) or within [1, max].
		var p Query
		err := p.IDPage(after, before, limit, max)
		ok := !(after != "" && before != "") && (limit == 0 || limit >= 1 && limit <= max)
		if ok != (err == nil) {
			t.Fatalf("IDPage(%q, %q, %d, %d) = %v", after, before, limit, max, err)
		}
		if err != nil {
			if !errors.Is(err, apierror.ErrInvalidRequest) || p.Encode() != "" {
				t.Fatalf("IDPage refused with %v and wrote %q", err, p.Encode())
			}
			return
		}
		want = url.Values{}
		for k, v := range map[string]string{"after_id": after, "before_id": before} {
			if v != "" {
				want.Set(k, v)
			}
		}
		if limit != 0 {
			want.Set("limit", strconv.Itoa(limit))
		}
		checkQuery(t, p.Encode(), want)
	})
}

// checkQuery parses an encoded query with net/url and compares it with
// want.
func checkQuery(t *testing.T, encoded string, want url.Values) {
	t.Helper()
	got, err := url.ParseQuery(encoded)
	if err != nil {
		t.Fatalf("net/url cannot parse %q: %v", encoded, err)
	}
	if len(want) == 0 && encoded != "" {
		t.Fatalf("nothing to send, but the query is %q", encoded)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q parses back differently (-want +got):\n%s", encoded, diff)
	}
}
