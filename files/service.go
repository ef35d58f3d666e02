package files

import (
	"context"
	"io"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Service calls the Files endpoints. Get one from agentplatform.Client.Files.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Files
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

const (
	route        = "/v1/files"
	fileRoute    = "/v1/files/{file_id}"
	maxListLimit = 1000
	maxListIDs   = 100
)

// Upload stores a file in the request's workspace: POST /v1/files, a
// multipart/form-data body streamed from params.Reader. The call's
// options apply as to any call; option.WithRequestTimeout (10 minutes by
// default) bounds each attempt, the upload included, so raise it for very
// large files on slow links.
func (s *Service) Upload(ctx context.Context, params UploadParams, opts ...option.Option) (*File, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	b, err := newBody(&params)
	if err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, route)
	req.Op = "files.upload"
	req.Body = b.upload()
	req.Result = func(span pipeline.Span, out any) {
		span.SetAttributes(attr.HTTPRequestBodySize.Int64(b.bytesSent()), attr.FileID.String(out.(*File).ID))
	}
	return pipeline.Do[File](ctx, s.p, req, opts)
}

// Get returns a file's metadata: GET /v1/files/{file_id}.
func (s *Service) Get(ctx context.Context, fileID string, opts ...option.Option) (*File, error) {
	req, err := fileRequest(http.MethodGet, fileRoute, fileID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[File](ctx, s.p, req, opts)
}

// Delete deletes a file: DELETE /v1/files/{file_id}. Sessions that mounted
// it keep their copy.
func (s *Service) Delete(ctx context.Context, fileID string, opts ...option.Option) (*DeletedFile, error) {
	req, err := fileRequest(http.MethodDelete, fileRoute, fileID)
	if err != nil {
		return nil, err
	}
	return pipeline.Do[DeletedFile](ctx, s.p, req, opts)
}

// Download is a file's content as it arrives: read it, then close it.
// Closing ends the call's span; a Download never closed holds its
// connection.
type Download struct {
	// ContentType is the file's MIME type, as the response's Content-Type says.
	ContentType string
	// Size is the content's length in bytes, or -1 when the response did
	// not say.
	Size int64
	// Filename is the name the response's Content-Disposition gives, or "".
	Filename string

	body io.ReadCloser
}

// Read reads the content.
func (d *Download) Read(p []byte) (int, error) { return d.body.Read(p) }

// Close releases the connection; reading stops.
func (d *Download) Close() error { return d.body.Close() }

// Download returns a file's content, streamed: GET
// /v1/files/{file_id}/content. Only files with Downloadable set (those
// the platform wrote) can be downloaded; an upload's is refused with a
// 400. The content is not bound by option.WithMaxResponseSize, and
// retries cover only getting the response's headers.
func (s *Service) Download(ctx context.Context, fileID string, opts ...option.Option) (*Download, error) {
	req, err := fileRequest(http.MethodGet, fileRoute+"/content", fileID)
	if err != nil {
		return nil, err
	}
	req.Op = "files.download"
	resp, err := pipeline.Download(ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	d := &Download{ContentType: resp.Header.Get("Content-Type"), Size: resp.ContentLength, body: resp.Body}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	return d, nil
}

// fileRequest starts the request of a call on one file, whose id is
// checked first.
func fileRequest(method, route, fileID string) (*pipeline.Request, error) {
	if fileID != "" && !strings.HasPrefix(fileID, "file_") {
		return nil, &apierror.ValidationError{Field: "file_id", Rule: "must be a file id (`file_…`)"}
	}
	req := pipeline.NewRequest(method, route, fileID)
	req.Annotate = func(span pipeline.Span) { span.SetAttributes(attr.FileID.String(fileID)) }
	return req, nil
}

// ListParams selects a page of files.
type ListParams struct {
	Page    string   // cursor from a previous page's NextPage; "" for the first page
	Limit   int      // 1 to 1000; 0 means 20
	ScopeID string   // only the files this session created (`sesn_…`)
	IDs     []string // only these files (`file_…`, at most 100)
}

// List returns one page of files, newest first: GET /v1/files. Expired
// and deleted files are not listed.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[File], error) {
	req := pipeline.NewRequest(http.MethodGet, route)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	if params.ScopeID != "" && !strings.HasPrefix(params.ScopeID, "sesn_") {
		return nil, &apierror.ValidationError{Field: "scope_id", Rule: "must be a session id (`sesn_…`)"}
	}
	if len(params.IDs) > maxListIDs {
		return nil, &apierror.ValidationError{Field: "ids", Rule: "must have at most " + strconv.Itoa(maxListIDs) + " values"}
	}
	if err := check.PrefixedIDs("ids", params.IDs, "file_", "a file id"); err != nil {
		return nil, err
	}
	req.Query.String("scope_id", params.ScopeID)
	req.Query.Strings("ids", params.IDs)
	return pipeline.Do[pagination.CursorPage[File]](ctx, s.p, req, opts)
}

// All walks every file from params.Page on, newest first, fetching pages
// as the loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*File, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[File], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}
