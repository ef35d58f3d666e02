package memorystores_test

import (
	"context"
	"strings"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/param"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	st := newStore(t, client, "target")
	m := newMemory(t, client, st.ID, "/notes.md", "hello")
	rep := strings.Repeat
	storeCreate := func(p memorystores.CreateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Create(ctx, p)
			return err
		}
	}
	storeUpdate := func(id string, p memorystores.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Update(ctx, id, p)
			return err
		}
	}
	storeList := func(p memorystores.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.List(ctx, p)
			return err
		}
	}
	memCreate := func(storeID string, p memorystores.MemoryCreateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Memories.Create(ctx, storeID, p)
			return err
		}
	}
	memPath := func(path string) reftest.Call { return memCreate(st.ID, memorystores.MemoryCreateParams{Path: path}) }
	memGet := func(storeID, id string, view memorystores.View) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Memories.Get(ctx, storeID, id, memorystores.MemoryGetParams{View: view})
			return err
		}
	}
	memUpdate := func(storeID, id string, p memorystores.MemoryUpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Memories.Update(ctx, storeID, id, p)
			return err
		}
	}
	memDelete := func(storeID, id string, p memorystores.MemoryDeleteParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return c.MemoryStores.Memories.Delete(ctx, storeID, id, p)
		}
	}
	memList := func(storeID string, p memorystores.MemoryListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Memories.List(ctx, storeID, p)
			return err
		}
	}
	verList := func(storeID string, p memorystores.VersionListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Versions.List(ctx, storeID, p)
			return err
		}
	}
	verGet := func(storeID, id string, view memorystores.View) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Versions.Get(ctx, storeID, id, memorystores.VersionGetParams{View: view})
			return err
		}
	}
	verRedact := func(storeID, id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.MemoryStores.Versions.Redact(ctx, storeID, id)
			return err
		}
	}
	byID := func(op func(context.Context, *agentplatform.Client, string) error) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { return op(ctx, c, "") }
	}
	reftest.RunBadInput(t, env, client, []badInput{
		// Stores.
		{"create name empty", storeCreate(memorystores.CreateParams{}), "name", "between 1 and 255 characters", true},
		{"create name 256", storeCreate(memorystores.CreateParams{Name: rep("n", 256)}), "name", "between 1 and 255 characters", true},
		{"create name control", storeCreate(memorystores.CreateParams{Name: "a\nb"}), "name", "must not contain control characters", true},
		{"create description 1025", storeCreate(memorystores.CreateParams{Name: "n", Description: rep("d", 1025)}), "description", "at most 1024 characters", true},
		{"create metadata 17 pairs", storeCreate(memorystores.CreateParams{Name: "n", Metadata: pairs(17)}), "metadata", "at most 16 pairs", true},
		{"create metadata key 65", storeCreate(memorystores.CreateParams{Name: "n", Metadata: map[string]string{rep("k", 65): "v"}}),
			"metadata", "keys must be between 1 and 64 characters", true},
		{"create metadata value 513", storeCreate(memorystores.CreateParams{Name: "n", Metadata: map[string]string{"k": rep("v", 513)}}),
			"metadata.k", "at most 512 characters", true},
		{"get empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			_, err := c.MemoryStores.Get(ctx, id)
			return err
		}),
			"memory_store_id", "must not be empty", true},
		{"archive empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			_, err := c.MemoryStores.Archive(ctx, id)
			return err
		}),
			"memory_store_id", "must not be empty", true},
		{"delete empty id", byID(func(ctx context.Context, c *agentplatform.Client, id string) error {
			return c.MemoryStores.Delete(ctx, id)
		}),
			"memory_store_id", "must not be empty", true},
		{"update empty id", storeUpdate("", memorystores.UpdateParams{Name: "x"}), "memory_store_id", "must not be empty", true},
		{"update name 256", storeUpdate(st.ID, memorystores.UpdateParams{Name: rep("n", 256)}), "name", "between 1 and 255 characters", true},
		{"update name control", storeUpdate(st.ID, memorystores.UpdateParams{Name: "tab\there"}), "name", "must not contain control characters", true},
		{"update description 1025", storeUpdate(st.ID, memorystores.UpdateParams{Description: param.Value(rep("d", 1025))}), "description", "at most 1024 characters", true},
		{"update metadata key empty", storeUpdate(st.ID, memorystores.UpdateParams{Metadata: map[string]*string{"": nil}}),
			"metadata", "keys must be between 1 and 64 characters", true},
		{"update metadata value 513", storeUpdate(st.ID, memorystores.UpdateParams{Metadata: map[string]*string{"k": new(rep("v", 513))}}),
			"metadata.k", "at most 512 characters", true},
		{"update metadata 17 set", storeUpdate(st.ID, memorystores.UpdateParams{Metadata: func() map[string]*string {
			out := map[string]*string{}
			for k, v := range pairs(17) {
				out[k] = &v
			}
			return out
		}()}), "metadata", "at most 16 pairs", true},
		{"list limit -1", storeList(memorystores.ListParams{Limit: -1}), "limit", "between 1 and 100", true},
		{"list limit 101", storeList(memorystores.ListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"list page", storeList(memorystores.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 101", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.MemoryStores.All(ctx, memorystores.ListParams{Limit: 101}))
		}, "limit", "between 1 and 100", true},

		// Memories.
		{"memory create empty store id", memCreate("", memorystores.MemoryCreateParams{Path: "/a.md"}), "memory_store_id", "must not be empty", true},
		{"memory path empty", memPath(""), "path", "must start with `/`", true},
		{"memory path relative", memPath("notes.md"), "path", "must start with `/`", true},
		{"memory path root", memPath("/"), "path", "must not contain empty, `.` or `..` segments", true},
		{"memory path trailing slash", memPath("/notes/"), "path", "must not contain empty, `.` or `..` segments", true},
		{"memory path dot dot", memPath("/a/../b.md"), "path", "must not contain empty, `.` or `..` segments", true},
		{"memory path 1025 bytes", memPath("/" + rep("é", 512)), "path", "between 2 and 1024 bytes", true},
		{"memory path control", memPath("/a\x00b"), "path", "must not contain control or format characters", true},
		{"memory path format character", memPath("/a\u200bb"), "path", "must not contain control or format characters", true},
		{"memory path line separator", memPath("/a\u2028b"), "path", "must not contain control or format characters", true},
		{"memory path invalid UTF-8", memPath("/a\xffb"), "path", "must be valid UTF-8", true},
		{"memory content 102401 bytes", memCreate(st.ID, memorystores.MemoryCreateParams{Path: "/big.md", Content: rep("c", 102401)}),
			"content", "at most 102400 bytes", true},
		{"memory content invalid UTF-8", memCreate(st.ID, memorystores.MemoryCreateParams{Path: "/bad.md", Content: "\xc3"}), "content", "must be valid UTF-8", true},
		{"memory create view unknown", memCreate(st.ID, memorystores.MemoryCreateParams{Path: "/v.md", View: "everything"}), "view", "must be one of `basic`, `full`", false},
		{"memory get empty store id", memGet("", m.ID, ""), "memory_store_id", "must not be empty", true},
		{"memory get empty id", memGet(st.ID, "", ""), "memory_id", "must not be empty", true},
		{"memory get view unknown", memGet(st.ID, m.ID, "raw"), "view", "must be one of `basic`, `full`", false},
		{"memory update empty id", memUpdate(st.ID, "", memorystores.MemoryUpdateParams{Path: "/x.md"}), "memory_id", "must not be empty", true},
		{"memory update path", memUpdate(st.ID, m.ID, memorystores.MemoryUpdateParams{Path: "/a//b"}), "path", "must not contain empty, `.` or `..` segments", true},
		{"memory update content", memUpdate(st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new(rep("c", 102401))}), "content", "at most 102400 bytes", true},
		{"memory update precondition", memUpdate(st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("x"), Precondition: &memorystores.Precondition{ContentSHA256: "ABC"}}),
			"precondition.content_sha256", "64 lowercase hexadecimal characters", true},
		{"memory update precondition uppercase", memUpdate(st.ID, m.ID, memorystores.MemoryUpdateParams{Precondition: &memorystores.Precondition{ContentSHA256: strings.ToUpper(m.ContentSHA256)}}),
			"precondition.content_sha256", "64 lowercase hexadecimal characters", true},
		{"memory update view unknown", memUpdate(st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("x"), View: "raw"}), "view", "must be one of `basic`, `full`", false},
		{"memory delete empty ids", memDelete("", "", memorystores.MemoryDeleteParams{}), "memory_store_id", "must not be empty", true},
		{"memory delete sha", memDelete(st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: rep("g", 64)}),
			"expected_content_sha256", "64 lowercase hexadecimal characters", true},
		{"memory list empty store id", memList("", memorystores.MemoryListParams{}), "memory_store_id", "must not be empty", true},
		{"memory list limit 101", memList(st.ID, memorystores.MemoryListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"memory list path_prefix without slash", memList(st.ID, memorystores.MemoryListParams{PathPrefix: "/notes"}), "path_prefix", "must end with `/`", true},
		{"memory list path_prefix relative", memList(st.ID, memorystores.MemoryListParams{PathPrefix: "notes/"}), "path_prefix", "must start with `/`", true},
		{"memory list path_prefix dot", memList(st.ID, memorystores.MemoryListParams{PathPrefix: "/./"}), "path_prefix", "must not contain empty, `.` or `..` segments", true},
		{"memory list depth -1", memList(st.ID, memorystores.MemoryListParams{Depth: -1}), "depth", "between 0 and 2147483647", true},
		{"memory list view unknown", memList(st.ID, memorystores.MemoryListParams{View: "raw"}), "view", "must be one of `basic`, `full`", false},
		{"memory list page", memList(st.ID, memorystores.MemoryListParams{Page: "page_x"}), "page", "invalid cursor", false},
		{"memory all path_prefix", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.MemoryStores.Memories.All(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "x"}))
		}, "path_prefix", "must end with `/`", true},

		// Versions.
		{"version list empty store id", verList("", memorystores.VersionListParams{}), "memory_store_id", "must not be empty", true},
		{"version list limit 101", verList(st.ID, memorystores.VersionListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"version list operation unknown", verList(st.ID, memorystores.VersionListParams{Operation: "renamed"}), "operation", "must be one of `created`, `modified`, `deleted`", false},
		{"version list view unknown", verList(st.ID, memorystores.VersionListParams{View: "raw"}), "view", "must be one of `basic`, `full`", false},
		{"version list page", verList(st.ID, memorystores.VersionListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"version all limit 101", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.MemoryStores.Versions.All(ctx, st.ID, memorystores.VersionListParams{Limit: 101}))
		}, "limit", "between 1 and 100", true},
		{"version get empty id", verGet(st.ID, "", ""), "memory_version_id", "must not be empty", true},
		{"version get view unknown", verGet(st.ID, m.MemoryVersionID, "raw"), "view", "must be one of `basic`, `full`", false},
		{"version redact empty store id", verRedact("", m.MemoryVersionID), "memory_store_id", "must not be empty", true},
		{"version redact empty id", verRedact(st.ID, ""), "memory_version_id", "must not be empty", true},
	})
}
