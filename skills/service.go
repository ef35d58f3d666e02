package skills

import (
	"context"
	"io"
	"iter"
	"mime"
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/form"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/skillmd"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Service calls the Skills endpoints. Get one from agentplatform.Client.Skills.
type Service struct {
	p *pipeline.Pipeline
	// Versions calls the endpoints of a skill's versions.
	Versions *VersionService
}

// VersionService calls the endpoints of skills' versions. Get one from
// agentplatform.Client.Skills.Versions.
type VersionService struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Skills
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Versions: &VersionService{p: p}}
}

const (
	route          = "/v1/skills"
	skillRoute     = "/v1/skills/{skill_id}"
	versionsRoute  = "/v1/skills/{skill_id}/versions"
	versionRoute   = "/v1/skills/{skill_id}/versions/{version}"
	maxListLimit   = 1000
	skillPrefix    = "skill_"
	versionPrefix  = "skillver_"
	latestVersion  = "latest"
	downloadOpName = "skills.versions.download"
)

// CreateParams is what Create sends.
type CreateParams struct {
	// Files is the skill's files (required): Dir, FS or Zip.
	Files Files
	// DisplayName is a label for people (optional): 1 to 255 characters on
	// one line; the skill's name when empty.
	DisplayName string
}

// Create uploads a skill's first version: POST /v1/skills, a
// multipart/form-data body streamed from params.Files. The files are
// checked first, as the API checks them (docs/skills-wire.md 3): a skill
// the API would refuse is refused locally with an
// *apierror.ValidationError, and nothing is sent.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Skill, error) {
	var fields []form.Field
	if params.DisplayName != "" {
		if p := skillmd.CheckDisplayName(params.DisplayName); p != nil {
			return nil, invalid(p)
		}
		fields = append(fields, form.Field{Name: "display_name", Value: params.DisplayName})
	}
	b, err := uploadBody(params.Files, fields)
	if err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, route)
	req.Body = b.upload()
	req.Result = func(span pipeline.Span, out any) {
		sk := out.(*Skill)
		span.SetAttributes(attr.SkillID.String(sk.ID), attr.SkillVersionID.String(sk.LatestVersionID))
	}
	return pipeline.Do[Skill](ctx, s.p, req, opts)
}

func uploadBody(files Files, fields []form.Field) (*body, error) {
	pl, err := files.check()
	if err != nil {
		return nil, err
	}
	return newBody(pl, fields)
}

// Get returns a skill: GET /v1/skills/{skill_id}.
func (s *Service) Get(ctx context.Context, skillID string, opts ...option.Option) (*Skill, error) {
	req, err := skillRequest(http.MethodGet, skillRoute, skillID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Skill](ctx, s.p, req, opts)
}

// Delete deletes a skill and its versions: DELETE /v1/skills/{skill_id}.
func (s *Service) Delete(ctx context.Context, skillID string, opts ...option.Option) (*Deleted, error) {
	req, err := skillRequest(http.MethodDelete, skillRoute, skillID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Deleted](ctx, s.p, req, opts)
}

// ListParams selects a page of skills.
type ListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 1000; 0 means 20
	// Source keeps only the skills of one source: "custom" or "vendor";
	// "" lists both.
	Source string
}

// List returns one page of the workspace's skills, newest first: GET
// /v1/skills.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Skill], error) {
	req := pipeline.NewRequest(http.MethodGet, route)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	switch params.Source {
	case "", "custom", "vendor":
	default:
		return nil, &apierror.ValidationError{Field: "source", Rule: "must be one of `custom`, `vendor`"}
	}
	req.Query.String("source", params.Source)
	return pipeline.Do[pagination.CursorPage[Skill]](ctx, s.p, req, opts)
}

// All walks every skill from params.Page on, newest first, fetching pages
// as the loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Skill, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Skill], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// CreateVersionParams is what Versions.Create sends.
type CreateVersionParams struct {
	// Files is the version's complete set of files (required): Dir, FS or
	// Zip. SKILL.md must give the skill's name, which never changes.
	Files Files
}

// Create uploads a new version of a skill, which becomes its latest: POST
// /v1/skills/{skill_id}/versions, streamed and checked first as
// Service.Create is.
func (s *VersionService) Create(ctx context.Context, skillID string, params CreateVersionParams, opts ...option.Option) (*Version, error) {
	req, err := skillRequest(http.MethodPost, versionsRoute, skillID)
	if err != nil {
		return nil, err
	}
	b, err := uploadBody(params.Files, nil)
	if err != nil {
		return nil, err
	}
	req.Body = b.upload()
	req.Result = func(span pipeline.Span, out any) {
		span.SetAttributes(attr.SkillVersionID.String(out.(*Version).ID))
	}
	return pipeline.Do[Version](ctx, s.p, req, opts)
}

// Get returns a version: GET /v1/skills/{skill_id}/versions/{version};
// version is a version id or "latest".
func (s *VersionService) Get(ctx context.Context, skillID, version string, opts ...option.Option) (*Version, error) {
	req, err := versionRequest(http.MethodGet, versionRoute, skillID, version, true)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Version](ctx, s.p, req, opts)
}

// Delete deletes a version: DELETE
// /v1/skills/{skill_id}/versions/{version_id}. A skill's only version
// cannot be deleted (delete the skill); deleting the latest makes the
// previous one latest.
func (s *VersionService) Delete(ctx context.Context, skillID, versionID string, opts ...option.Option) (*Deleted, error) {
	req, err := versionRequest(http.MethodDelete, versionRoute, skillID, versionID, false)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[Deleted](ctx, s.p, req, opts)
}

// VersionListParams selects a page of a skill's versions.
type VersionListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 1000; 0 means 20
}

// List returns one page of a skill's versions, newest first: GET
// /v1/skills/{skill_id}/versions.
func (s *VersionService) List(ctx context.Context, skillID string, params VersionListParams, opts ...option.Option) (*pagination.CursorPage[Version], error) {
	req, err := skillRequest(http.MethodGet, versionsRoute, skillID)
	if err != nil {
		return nil, err
	}
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	return pipeline.Do[pagination.CursorPage[Version]](ctx, s.p, req, opts)
}

// All walks every version of a skill from params.Page on, newest first,
// fetching pages as the loop asks.
func (s *VersionService) All(ctx context.Context, skillID string, params VersionListParams, opts ...option.Option) iter.Seq2[*Version, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Version], error) {
		p := params
		p.Page = page
		return s.List(ctx, skillID, p, opts...)
	})
}

// Download is a version's files as a zip archive, as it arrives: read it,
// then close it. Closing ends the call's span; a Download never closed
// holds its connection.
type Download struct {
	// Size is the archive's length in bytes, or -1 when the response did
	// not say.
	Size int64
	// Filename is the name the response gives the archive, "<name>.zip".
	Filename string

	body io.ReadCloser
}

// Read reads the archive.
func (d *Download) Read(p []byte) (int, error) { return d.body.Read(p) }

// Close releases the connection; reading stops.
func (d *Download) Close() error { return d.body.Close() }

// Download returns a version's files as a zip archive whose entries are
// under one directory, the skill's name; streamed: GET
// /v1/skills/{skill_id}/versions/{version_id}/content. It takes a version
// id: get "latest" with Get first. The archive is not bound by
// option.WithMaxResponseSize, and retries cover only getting the
// response's headers.
func (s *VersionService) Download(ctx context.Context, skillID, versionID string, opts ...option.Option) (*Download, error) {
	req, err := versionRequest(http.MethodGet, versionRoute+"/content", skillID, versionID, false)
	if err != nil {
		return nil, err
	}
	req.Op = downloadOpName
	resp, err := pipeline.Download(ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	d := &Download{Size: resp.ContentLength, body: resp.Body}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	return d, nil
}

// skillRequest starts the request of a call on one skill, whose id is
// checked first.
func skillRequest(method, route, skillID string) (*pipeline.Request, error) {
	if skillID != "" && !strings.HasPrefix(skillID, skillPrefix) {
		return nil, &apierror.ValidationError{Field: "skill_id", Rule: "must be a skill id (`skill_…`)"}
	}
	req := pipeline.NewRequest(method, route, skillID)
	req.Annotate = func(span pipeline.Span) { span.SetAttributes(attr.SkillID.String(skillID)) }
	return req, nil
}

// versionRequest starts the request of a call on one version; aliasOK
// accepts "latest".
func versionRequest(method, route, skillID, version string, aliasOK bool) (*pipeline.Request, error) {
	if skillID != "" && !strings.HasPrefix(skillID, skillPrefix) {
		return nil, &apierror.ValidationError{Field: "skill_id", Rule: "must be a skill id (`skill_…`)"}
	}
	if version != "" && !strings.HasPrefix(version, versionPrefix) && (!aliasOK || version != latestVersion) {
		rule := "must be a version id (`skillver_…`)"
		if aliasOK {
			rule = "must be a version id (`skillver_…`) or `latest`"
		}
		return nil, &apierror.ValidationError{Field: "version", Rule: rule}
	}
	req := pipeline.NewRequest(method, route, skillID, version)
	req.Annotate = func(span pipeline.Span) {
		span.SetAttributes(attr.SkillID.String(skillID), attr.SkillVersionID.String(version))
	}
	return req, nil
}
