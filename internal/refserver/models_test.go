package refserver_test

import (
	"net/http"
	"reflect"
	"testing"
)

type modelEntry struct {
	Type           string  `json:"type"`
	ID             string  `json:"id"`
	DisplayName    string  `json:"display_name"`
	CreatedAt      string  `json:"created_at"`
	DeprecatedAt   *string `json:"deprecated_at"`
	RetiresAt      *string `json:"retires_at"`
	Lifecycle      string  `json:"lifecycle"`
	Line           string  `json:"line"`
	MaxInputTokens int     `json:"max_input_tokens"`
	MaxTokens      int     `json:"max_tokens"`
	Capabilities   struct {
		ContextManagement map[string]any `json:"context_management"`
		Effort            map[string]any `json:"effort"`
		Thinking          struct {
			Supported bool                      `json:"supported"`
			Types     map[string]map[string]any `json:"types"`
		} `json:"thinking"`
	} `json:"capabilities"`
}

func supportedAt(m map[string]any, key string) any {
	return m[key].(map[string]any)["supported"]
}

func TestListModels(t *testing.T) {
	e := newEnv(t)
	var page struct {
		Data    []modelEntry `json:"data"`
		FirstID string       `json:"first_id"`
		HasMore bool         `json:"has_more"`
		LastID  string       `json:"last_id"`
	}
	r := e.do(t, "GET", "/v1/models", "")
	wantOK(t, r)
	r.decode(t, &page)
	var ids []string
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	want := []string{"vendor-opus-5-5", "vendor-sonnet-5-5", "vendor-haiku-5-5",
		"vendor-opus-4-5", "vendor-haiku-4-5", "vendor-sonnet-4-5"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("models %v, want newest first %v", ids, want)
	}
	if page.FirstID != "vendor-opus-5-5" || page.LastID != "vendor-sonnet-4-5" || page.HasMore {
		t.Fatalf("page %+v", page)
	}
	opus, sonnet, haiku := page.Data[0], page.Data[1], page.Data[2]
	if opus.Type != "model" || opus.DisplayName != "Vendor Opus 5.5" || opus.CreatedAt != "2026-08-05T00:00:00.000000Z" ||
		opus.Line != "opus" || opus.Lifecycle != "active" || opus.MaxInputTokens != 1_000_000 || opus.MaxTokens != 128_000 ||
		opus.DeprecatedAt != nil || opus.RetiresAt != nil {
		t.Fatalf("opus %+v", opus)
	}
	if sonnet.MaxTokens != 64_000 || sonnet.CreatedAt != "2026-06-17T00:00:00.000000Z" ||
		supportedAt(sonnet.Capabilities.Effort, "xhigh") != false || supportedAt(sonnet.Capabilities.Effort, "max") != true {
		t.Fatalf("sonnet %+v", sonnet)
	}
	if haiku.MaxInputTokens != 200_000 || haiku.Capabilities.Effort["supported"] != false ||
		haiku.Capabilities.Thinking.Types["adaptive"]["supported"] != false ||
		haiku.Capabilities.Thinking.Types["enabled"]["supported"] != true ||
		supportedAt(haiku.Capabilities.ContextManagement, "compact_20260112") != false {
		t.Fatalf("haiku %+v", haiku)
	}
	for _, level := range []string{"low", "medium", "high", "max", "xhigh"} {
		if supportedAt(haiku.Capabilities.Effort, level) != false {
			t.Fatalf("haiku effort %s supported", level)
		}
	}
	// The previous generation is listed, deprecated, with its dates.
	old := page.Data[3]
	if old.Lifecycle != "deprecated" || old.DeprecatedAt == nil || *old.DeprecatedAt != "2026-08-05T00:00:00.000000Z" ||
		old.RetiresAt == nil || *old.RetiresAt != "2027-08-05T00:00:00.000000Z" ||
		supportedAt(old.Capabilities.Effort, "max") != true || supportedAt(old.Capabilities.Effort, "xhigh") != false {
		t.Fatalf("opus 4.5 %+v", old)
	}
	// Nullable timestamps are sent as keys.
	raw := wantOK(t, e.do(t, "GET", "/v1/models/vendor-opus-5-5", ""))
	for _, key := range []string{"deprecated_at", "retires_at"} {
		if v, ok := raw[key]; !ok || v != nil {
			t.Fatalf("%s: %v, %v", key, v, ok)
		}
	}
}

func TestModelPagination(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		query   string
		want    []any
		hasMore bool
	}{
		{"?limit=1", []any{"vendor-opus-5-5"}, true},
		{"?limit=1&after_id=vendor-opus-5-5", []any{"vendor-sonnet-5-5"}, true},
		{"?limit=2&after_id=vendor-opus-5-5", []any{"vendor-sonnet-5-5", "vendor-haiku-5-5"}, true},
		{"?after_id=vendor-haiku-4-5", []any{"vendor-sonnet-4-5"}, false},
		{"?limit=1&before_id=vendor-haiku-5-5", []any{"vendor-sonnet-5-5"}, true},
		{"?before_id=vendor-sonnet-5-5", []any{"vendor-opus-5-5"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			page := wantOK(t, e.do(t, "GET", "/v1/models"+tc.query, ""))
			var ids []any
			for _, m := range page["data"].([]any) {
				ids = append(ids, m.(map[string]any)["id"])
			}
			if !reflect.DeepEqual(ids, tc.want) || page["has_more"] != tc.hasMore {
				t.Fatalf("ids %v has_more %v", ids, page["has_more"])
			}
		})
	}
	wantInvalid(t, e.do(t, "GET", "/v1/models?limit=1001", ""), "limit: must be between 1 and 1000")
	wantInvalid(t, e.do(t, "GET", "/v1/models?after_id=vendor-opus-1", ""), "after_id: no object with id `vendor-opus-1`")
}

func TestGetModel(t *testing.T) {
	e := newEnv(t)
	got := wantOK(t, e.do(t, "GET", "/v1/models/vendor-sonnet-5-5", ""))
	if got["id"] != "vendor-sonnet-5-5" || got["type"] != "model" {
		t.Fatalf("got %v", got)
	}
	wantError(t, e.do(t, "GET", "/v1/models/vendor-nano", ""), http.StatusNotFound, "not_found_error", "Model `vendor-nano` not found.")
}
