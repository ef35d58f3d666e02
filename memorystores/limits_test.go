package memorystores_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/param"
)

func pairs(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprint("k", i)] = "v"
	}
	return m
}

// limitCase is one call at a limit: accepted (field == "") or refused
// locally, naming field, with nothing sent.
type limitCase struct {
	name  string
	call  func(ctx context.Context) error
	field string
}

func runLimitCases(t *testing.T, env *reftest.Env, cases []limitCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.Server.Requests())
			err := tc.call(context.Background())
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var verr *apierror.ValidationError
			require.ErrorAs(t, err, &verr)
			require.Equal(t, tc.field, verr.Field, verr.Error())
			require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			require.Len(t, env.Server.Requests(), before, "nothing is sent")
		})
	}
}

func TestStoreLimits(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	st := newStore(t, client, "target")
	create := func(p memorystores.CreateParams) func(context.Context) error {
		return func(ctx context.Context) error { _, err := client.MemoryStores.Create(ctx, p); return err }
	}
	update := func(p memorystores.UpdateParams) func(context.Context) error {
		return func(ctx context.Context) error { _, err := client.MemoryStores.Update(ctx, st.ID, p); return err }
	}
	list := func(p memorystores.ListParams) func(context.Context) error {
		return func(ctx context.Context) error { _, err := client.MemoryStores.List(ctx, p); return err }
	}
	patch := func(n int) map[string]*string {
		m := map[string]*string{}
		for i := range n {
			m[fmt.Sprint("p", i)] = new("v")
		}
		return m
	}
	runLimitCases(t, env, []limitCase{
		{"name empty", create(memorystores.CreateParams{}), "name"},
		{"name 1", create(memorystores.CreateParams{Name: "a"}), ""},
		{"name 255", create(memorystores.CreateParams{Name: strings.Repeat("é", 255)}), ""},
		{"name 256", create(memorystores.CreateParams{Name: strings.Repeat("é", 256)}), "name"},
		{"name with a newline", create(memorystores.CreateParams{Name: "a\nb"}), "name"},
		{"name with DEL", create(memorystores.CreateParams{Name: "a\x7f"}), "name"},
		{"description 1024", create(memorystores.CreateParams{Name: "a", Description: strings.Repeat("d", 1024)}), ""},
		{"description 1025", create(memorystores.CreateParams{Name: "a", Description: strings.Repeat("d", 1025)}), "description"},
		{"16 pairs", create(memorystores.CreateParams{Name: "a", Metadata: pairs(16)}), ""},
		{"17 pairs", create(memorystores.CreateParams{Name: "a", Metadata: pairs(17)}), "metadata"},
		{"key 64", create(memorystores.CreateParams{Name: "a", Metadata: map[string]string{strings.Repeat("k", 64): "v"}}), ""},
		{"key 65", create(memorystores.CreateParams{Name: "a", Metadata: map[string]string{strings.Repeat("k", 65): "v"}}), "metadata"},
		{"key empty", create(memorystores.CreateParams{Name: "a", Metadata: map[string]string{"": "v"}}), "metadata"},
		{"value 512", create(memorystores.CreateParams{Name: "a", Metadata: map[string]string{"k": strings.Repeat("v", 512)}}), ""},
		{"value 513", create(memorystores.CreateParams{Name: "a", Metadata: map[string]string{"k": strings.Repeat("v", 513)}}), "metadata.k"},

		{"update name 255", update(memorystores.UpdateParams{Name: strings.Repeat("n", 255)}), ""},
		{"update name 256", update(memorystores.UpdateParams{Name: strings.Repeat("n", 256)}), "name"},
		{"update name control", update(memorystores.UpdateParams{Name: "\t"}), "name"},
		{"update description 1024", update(memorystores.UpdateParams{Description: param.Value(strings.Repeat("d", 1024))}), ""},
		{"update description 1025", update(memorystores.UpdateParams{Description: param.Value(strings.Repeat("d", 1025))}), "description"},
		{"patch sets 16", update(memorystores.UpdateParams{Metadata: patch(16)}), ""},
		{"patch sets 17", update(memorystores.UpdateParams{Metadata: patch(17)}), "metadata"},
		{"patch key 65", update(memorystores.UpdateParams{Metadata: map[string]*string{strings.Repeat("k", 65): nil}}), "metadata"},
		{"patch value 513", update(memorystores.UpdateParams{Metadata: map[string]*string{"k": new(strings.Repeat("v", 513))}}), "metadata.k"},

		{"limit 1", list(memorystores.ListParams{Limit: 1}), ""},
		{"limit 100", list(memorystores.ListParams{Limit: 100}), ""},
		{"limit 101", list(memorystores.ListParams{Limit: 101}), "limit"},
		{"limit -1", list(memorystores.ListParams{Limit: -1}), "limit"},
		{"empty store id", func(ctx context.Context) error { _, err := client.MemoryStores.Get(ctx, ""); return err }, "memory_store_id"},
	})

	// The pair limit applies to the result of a patch, which only the
	// server knows: 16 stored pairs plus one more is refused there.
	_, err := client.MemoryStores.Update(context.Background(), st.ID, memorystores.UpdateParams{Metadata: map[string]*string{"one-more": new("v")}})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "metadata: must have at most 16 pairs")
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr, "refused by the server")
	replaced, err := client.MemoryStores.Update(context.Background(), st.ID, memorystores.UpdateParams{
		Metadata: map[string]*string{"one-more": new("v"), "p0": nil},
	})
	require.NoError(t, err, "deleting one makes room")
	require.Len(t, replaced.Metadata, 16)
}

func TestMemoryLimits(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	st := newStore(t, client, "target")
	m := newMemory(t, client, st.ID, "/existing.md", "x")
	mems := client.MemoryStores.Memories
	create := func(path, content string) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: path, Content: content})
			return err
		}
	}
	update := func(p memorystores.MemoryUpdateParams) func(context.Context) error {
		return func(ctx context.Context) error { _, err := mems.Update(ctx, st.ID, m.ID, p); return err }
	}
	list := func(p memorystores.MemoryListParams) func(context.Context) error {
		return func(ctx context.Context) error { _, err := mems.List(ctx, st.ID, p); return err }
	}
	versions := func(p memorystores.VersionListParams) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := client.MemoryStores.Versions.List(ctx, st.ID, p)
			return err
		}
	}
	del := func(expected string) func(context.Context) error {
		return func(ctx context.Context) error {
			return mems.Delete(ctx, st.ID, "mem_01missing", memorystores.MemoryDeleteParams{ExpectedContentSHA256: expected})
		}
	}
	path1024 := "/" + strings.Repeat("p", 1023)
	runLimitCases(t, env, []limitCase{
		{"path of 1024 bytes", create(path1024, ""), ""},
		{"path of 1025 bytes", create(path1024+"p", ""), "path"},
		{"path of 1024 bytes in 2-byte runes", create("/"+strings.Repeat("é", 511)+"p", ""), ""},
		{"path of 1025 bytes in 2-byte runes", create("/"+strings.Repeat("é", 512), ""), "path"},
		{"path of two bytes", create("/a", ""), ""},
		{"path empty", create("", ""), "path"},
		{"path /", create("/", ""), "path"},
		{"path without a leading /", create("a.md", ""), "path"},
		{"path with a trailing /", create("/dir/", ""), "path"},
		{"path with an empty segment", create("/a//b", ""), "path"},
		{"path with .", create("/a/./b", ""), "path"},
		{"path with ..", create("/a/../b", ""), "path"},
		{"path with a control character", create("/a\x01b", ""), "path"},
		{"path with a format character", create("/a\u200bb", ""), "path"},
		{"path with a line separator", create("/a\u2028b", ""), "path"},
		{"path not UTF-8", create("/a\xffb", ""), "path"},
		{"path with dots inside names", create("/.hidden/..x/a..b", ""), ""},
		{"content of 102400 bytes", create("/big.md", strings.Repeat("c", 102400)), ""},
		{"content of 102401 bytes", create("/bigger.md", strings.Repeat("c", 102401)), "content"},
		{"content not UTF-8", create("/bad.md", "\xff"), "content"},

		{"update content of 102401 bytes", update(memorystores.MemoryUpdateParams{Content: new(strings.Repeat("c", 102401))}), "content"},
		{"update path", update(memorystores.MemoryUpdateParams{Path: "no-slash"}), "path"},
		{"precondition sha of 64", update(memorystores.MemoryUpdateParams{Content: new("y"),
			Precondition: &memorystores.Precondition{ContentSHA256: m.ContentSHA256}}), ""},
		{"precondition sha of 63", update(memorystores.MemoryUpdateParams{Precondition: &memorystores.Precondition{ContentSHA256: strings.Repeat("a", 63)}}), "precondition.content_sha256"},
		{"precondition sha of 65", update(memorystores.MemoryUpdateParams{Precondition: &memorystores.Precondition{ContentSHA256: strings.Repeat("a", 65)}}), "precondition.content_sha256"},
		{"precondition sha uppercase", update(memorystores.MemoryUpdateParams{Precondition: &memorystores.Precondition{ContentSHA256: strings.ToUpper(m.ContentSHA256)}}), "precondition.content_sha256"},
		{"precondition sha empty", update(memorystores.MemoryUpdateParams{Precondition: &memorystores.Precondition{}}), "precondition.content_sha256"},
		{"delete sha not hex", del(strings.Repeat("g", 64)), "expected_content_sha256"},

		{"prefix /", list(memorystores.MemoryListParams{PathPrefix: "/"}), ""},
		{"prefix /a/", list(memorystores.MemoryListParams{PathPrefix: "/a/"}), ""},
		{"prefix without a trailing /", list(memorystores.MemoryListParams{PathPrefix: "/a"}), "path_prefix"},
		{"prefix without a leading /", list(memorystores.MemoryListParams{PathPrefix: "a/"}), "path_prefix"},
		{"prefix with an empty segment", list(memorystores.MemoryListParams{PathPrefix: "//"}), "path_prefix"},
		{"depth 0", list(memorystores.MemoryListParams{Depth: 0}), ""},
		{"depth 1", list(memorystores.MemoryListParams{Depth: 1}), ""},
		{"depth -1", list(memorystores.MemoryListParams{Depth: -1}), "depth"},
		{"memory limit 100", list(memorystores.MemoryListParams{Limit: 100}), ""},
		{"memory limit 101", list(memorystores.MemoryListParams{Limit: 101}), "limit"},
		{"version limit 100", versions(memorystores.VersionListParams{Limit: 100}), ""},
		{"version limit 101", versions(memorystores.VersionListParams{Limit: 101}), "limit"},
		{"version limit -1", versions(memorystores.VersionListParams{Limit: -1}), "limit"},
		{"empty memory id", func(ctx context.Context) error {
			_, err := mems.Get(ctx, st.ID, "", memorystores.MemoryGetParams{})
			return err
		}, "memory_id"},
	})

	// Enum values are the server's business: an unknown view is sent.
	before := len(env.Server.Requests())
	_, err := mems.Get(context.Background(), st.ID, m.ID, memorystores.MemoryGetParams{View: "everything"})
	require.ErrorContains(t, err, "view: must be one of `basic`, `full`")
	require.Len(t, env.Server.Requests(), before+1)
}
