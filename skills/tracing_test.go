package skills_test

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/skills"
)

// The Skills spans (docs/skills-wire.md 6): their names, the skill's and
// version's ids; content mode records no file bytes.
func TestSpans(t *testing.T) {
	env := reftest.New(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c := env.Client(t, option.WithTracerProvider(tp), option.WithContentCapture(true))
	ctx := context.Background()

	sk, err := c.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(skillFS("traced", "Traced.", "secret.txt", "top-secret-bytes"))})
	require.NoError(t, err)
	a := spantest.Attrs(spantest.One(t, rec, "vendor.skills.create"))
	require.Equal(t, sk.ID, a[attr.SkillID].AsString())
	require.Equal(t, sk.LatestVersionID, a[attr.SkillVersionID].AsString())

	v, err := c.Skills.Versions.Create(ctx, sk.ID, skills.CreateVersionParams{Files: skills.FS(skillFS("traced", "Again."))})
	require.NoError(t, err)
	a = spantest.Attrs(spantest.One(t, rec, "vendor.skills.versions.create"))
	require.Equal(t, sk.ID, a[attr.SkillID].AsString())
	require.Equal(t, v.ID, a[attr.SkillVersionID].AsString())

	calls := []struct {
		span string
		call func() error
	}{
		{"vendor.skills.retrieve", func() error { _, err := c.Skills.Get(ctx, sk.ID); return err }},
		{"vendor.skills.list", func() error { _, err := c.Skills.List(ctx, skills.ListParams{}); return err }},
		{"vendor.skills.versions.retrieve", func() error { _, err := c.Skills.Versions.Get(ctx, sk.ID, "latest"); return err }},
		{"vendor.skills.versions.list", func() error {
			_, err := c.Skills.Versions.List(ctx, sk.ID, skills.VersionListParams{})
			return err
		}},
		{"vendor.skills.versions.download", func() error {
			d, err := c.Skills.Versions.Download(ctx, sk.ID, v.ID)
			if err != nil {
				return err
			}
			require.Empty(t, spantest.Named(rec, "vendor.skills.versions.download"), "the span lasts until the body is closed")
			_, err = io.Copy(io.Discard, d)
			require.NoError(t, err)
			return d.Close()
		}},
		{"vendor.skills.versions.delete", func() error { _, err := c.Skills.Versions.Delete(ctx, sk.ID, v.ID); return err }},
		{"vendor.skills.delete", func() error { _, err := c.Skills.Delete(ctx, sk.ID); return err }},
	}
	for _, step := range calls {
		require.NoError(t, step.call(), step.span)
		s := spantest.One(t, rec, step.span)
		require.Equal(t, codes.Ok, s.Status().Code, step.span)
		if step.span != "vendor.skills.list" {
			require.Equal(t, sk.ID, spantest.Attrs(s)[attr.SkillID].AsString(), step.span)
		}
	}
	for _, s := range rec.Ended() {
		for _, kv := range s.Attributes() {
			require.NotContains(t, kv.Value.String(), "top-secret-bytes", "%s: %s", s.Name(), kv.Key)
		}
	}
}
