package files_test

import (
	"context"
	"strings"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := newEnv(t)
	up := func(p files.UploadParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Files.Upload(ctx, p); return err }
	}
	body := func() *strings.Reader { return strings.NewReader("data") }
	get := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Files.Get(ctx, id); return err }
	}
	del := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Files.Delete(ctx, id)
			return err
		}
	}
	download := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			d, err := c.Files.Download(ctx, id)
			if err == nil {
				d.Close()
			}
			return err
		}
	}
	list := func(p files.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Files.List(ctx, p); return err }
	}
	all := func(p files.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { return reftest.FirstErr(c.Files.All(ctx, p)) }
	}
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = "file_" + strings.Repeat("a", 20) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	reftest.RunBadInput(t, env, env.Client(t), []badInput{
		{"upload nil reader", up(files.UploadParams{}), "Reader", "is required", true},
		{"upload expiry too short", up(files.UploadParams{Reader: body(), ExpiresIn: time.Hour - time.Second}), "expires_in_seconds", "between 3600 and 7776000", true},
		{"upload expiry too long", up(files.UploadParams{Reader: body(), ExpiresIn: 90*24*time.Hour + time.Second}), "expires_in_seconds", "between 3600 and 7776000", true},
		{"upload expiry negative", up(files.UploadParams{Reader: body(), ExpiresIn: -time.Hour}), "expires_in_seconds", "between 3600 and 7776000", true},
		{"upload expiry not whole seconds", up(files.UploadParams{Reader: body(), ExpiresIn: time.Hour + time.Millisecond}), "expires_in_seconds", "whole number of seconds", true},
		{"upload filename with a newline", up(files.UploadParams{Reader: body(), Filename: "a\r\nb.txt"}), "filename", "control characters", true},
		{"upload mime type malformed", up(files.UploadParams{Reader: body(), MimeType: "not a type"}), "mime_type", "media type", true},
		{"upload size negative", up(files.UploadParams{Reader: body(), Size: -2}), "Size", "length in bytes", true},
		{"upload empty file", up(files.UploadParams{Reader: strings.NewReader(""), Filename: "e.txt"}), "file", "must not be empty", false},
		{"get empty id", get(""), "file_id", "must not be empty", true},
		{"get not a file id", get("sesn_123"), "file_id", "must be a file id", true},
		{"delete empty id", del(""), "file_id", "must not be empty", true},
		{"delete not a file id", del("file"), "file_id", "must be a file id", true},
		{"download empty id", download(""), "file_id", "must not be empty", true},
		{"download not a file id", download("../x"), "file_id", "must be a file id", true},
		{"list limit -1", list(files.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(files.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list scope not a session", list(files.ListParams{ScopeID: "file_1"}), "scope_id", "must be a session id", true},
		{"list ids not file ids", list(files.ListParams{IDs: []string{"file_1", "x"}}), "ids[1]", "must be a file id", true},
		{"list ids repeated", list(files.ListParams{IDs: []string{"file_1", "file_1"}}), "ids[1]", "duplicate", true},
		{"list too many ids", list(files.ListParams{IDs: ids}), "ids", "at most 100", true},
		{"list page not a cursor", list(files.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 1001", all(files.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
	})
}
