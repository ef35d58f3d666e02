package tunnels

import (
	"context"
	"encoding/pem"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// CertificatesService calls the endpoints of a tunnel's CA certificates:
// /v1/tunnels/{tunnel_id}/certificates. Get one from
// agentplatform.Client.Tunnels.Certificates.
type CertificatesService struct{ c calls }

// maxCertificatePEM bounds CertificateCreateParams.CACertificatePEM.
const maxCertificatePEM = 8 << 10

// CertificateCreateParams is the body of Create.
type CertificateCreateParams struct {
	// CACertificatePEM is one PEM-encoded X.509 CA certificate and
	// nothing else (no private key), at most 8 KiB. Required.
	CACertificatePEM string `json:"ca_certificate_pem"`
}

func (p *CertificateCreateParams) validate() error {
	const field = "ca_certificate_pem"
	switch {
	case p.CACertificatePEM == "":
		return &apierror.ValidationError{Field: field, Rule: "is required"}
	case len(p.CACertificatePEM) > maxCertificatePEM:
		return &apierror.ValidationError{Field: field, Rule: "must be at most 8192 bytes"}
	}
	if block, _ := pem.Decode([]byte(p.CACertificatePEM)); block == nil {
		return &apierror.ValidationError{Field: field, Rule: "must be a PEM-encoded certificate"}
	}
	return nil
}

// Create registers a CA certificate on a tunnel: POST
// /v1/tunnels/{tunnel_id}/certificates. A tunnel holds at most two
// certificates that are not archived (409 for a third), and an archived
// tunnel takes none (409).
func (s *CertificatesService) Create(ctx context.Context, tunnelID string, params CertificateCreateParams, opts ...option.Option) (*Certificate, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := s.c.request(http.MethodPost, "/{tunnel_id}/certificates", tunnelID)
	req.Body = &params
	return pipeline.Do[Certificate](ctx, s.c.p, req, opts)
}

// Get returns one certificate of a tunnel: GET
// /v1/tunnels/{tunnel_id}/certificates/{certificate_id}.
func (s *CertificatesService) Get(ctx context.Context, tunnelID, certificateID string, opts ...option.Option) (*Certificate, error) {
	req := s.c.request(http.MethodGet, "/{tunnel_id}/certificates/{certificate_id}", tunnelID, certificateID)
	return pipeline.Do[Certificate](ctx, s.c.p, req, opts)
}

// Archive removes a certificate from the tunnel's trusted set; one-way and
// idempotent: POST /v1/tunnels/{tunnel_id}/certificates/{certificate_id}/archive.
func (s *CertificatesService) Archive(ctx context.Context, tunnelID, certificateID string, opts ...option.Option) (*Certificate, error) {
	req := s.c.request(http.MethodPost, "/{tunnel_id}/certificates/{certificate_id}/archive", tunnelID, certificateID)
	return pipeline.Do[Certificate](ctx, s.c.p, req, opts)
}

// CertificateListParams selects a page of a tunnel's certificates.
type CertificateListParams struct {
	Page            string // cursor from a previous page's NextPage; "" for the first page
	Limit           int    // 1 to 1000; 0 means 20
	IncludeArchived bool   // also list archived certificates
}

// List returns one page of a tunnel's certificates, newest first: GET
// /v1/tunnels/{tunnel_id}/certificates.
func (s *CertificatesService) List(ctx context.Context, tunnelID string, params CertificateListParams, opts ...option.Option) (*pagination.CursorPage[Certificate], error) {
	req := s.c.request(http.MethodGet, "/{tunnel_id}/certificates", tunnelID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Certificate]](ctx, s.c.p, req, opts)
}

// All walks a tunnel's certificates from params.Page on, fetching pages as
// the loop asks.
func (s *CertificatesService) All(ctx context.Context, tunnelID string, params CertificateListParams, opts ...option.Option) iter.Seq2[*Certificate, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Certificate], error) {
		p := params
		p.Page = page
		return s.List(ctx, tunnelID, p, opts...)
	})
}
