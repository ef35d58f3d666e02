package identity

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// A tunnel's CA certificates (docs/api-choices.md "Tunnels"): the public
// CAs the platform checks the gateway's server certificate against. A
// tunnel holds at most two that are not archived, so that a CA can be
// rolled over without a gap.

const (
	tunnelCertificates = "/v1/tunnels/{tunnel_id}/certificates"
	maxCertificatePEM  = 8 << 10
	maxActiveCerts     = 2
)

type tunnelCert struct {
	id          string
	tunnelID    string
	fingerprint string    // lowercase hex SHA-256 of the DER
	expiresAt   time.Time // the certificate's NotAfter
	createdAt   time.Time
	archivedAt  time.Time // zero while trusted
}

func (tc *tunnelCert) archived() bool { return !tc.archivedAt.IsZero() }

func (tc *tunnelCert) position() kit.Position {
	return kit.Position{CreatedAt: tc.createdAt, ID: tc.id}
}

type tunnelCertJSON struct {
	Type        string         `json:"type"`
	ID          string         `json:"id"`
	TunnelID    string         `json:"tunnel_id"`
	Fingerprint string         `json:"fingerprint"`
	ExpiresAt   *kit.Timestamp `json:"expires_at"`
	ArchivedAt  *kit.Timestamp `json:"archived_at"`
	CreatedAt   kit.Timestamp  `json:"created_at"`
}

func (tc *tunnelCert) view() tunnelCertJSON {
	return tunnelCertJSON{
		Type:        "tunnel_certificate",
		ID:          tc.id,
		TunnelID:    tc.tunnelID,
		Fingerprint: tc.fingerprint,
		ExpiresAt:   kit.OptionalTimestamp(tc.expiresAt),
		ArchivedAt:  kit.OptionalTimestamp(tc.archivedAt),
		CreatedAt:   kit.Timestamp(tc.createdAt),
	}
}

type certificateCreateBody struct {
	CACertificatePEM kit.Optional[string] `json:"ca_certificate_pem"`
}

// parseCACertificate checks ca_certificate_pem: at most 8 KiB, exactly one
// PEM block, a CERTIFICATE that parses as X.509 and is a CA, and nothing
// else (a private key in particular).
func parseCACertificate(text string) (*x509.Certificate, error) {
	const field = "ca_certificate_pem"
	if len(text) > maxCertificatePEM {
		return nil, kit.InvalidField(field, "must be at most %d bytes", maxCertificatePEM)
	}
	block, rest := pem.Decode([]byte(text))
	if block == nil {
		return nil, kit.InvalidField(field, "must be a PEM-encoded certificate")
	}
	if block.Type != "CERTIFICATE" {
		return nil, kit.InvalidField(field, "must hold a CERTIFICATE block, not %s", block.Type)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, kit.InvalidField(field, "must hold exactly one certificate and nothing else")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, kit.InvalidField(field, "is not a valid X.509 certificate")
	}
	if !cert.IsCA {
		return nil, kit.InvalidField(field, "must be a CA certificate")
	}
	return cert, nil
}

func (s *Service) createTunnelCertificate(c *kit.Call) error {
	var body certificateCreateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required("ca_certificate_pem", body.CACertificatePEM); err != nil {
		return err
	}
	cert, err := parseCACertificate(body.CACertificatePEM.Value)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(cert.Raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.activeTunnelLocked(c)
	if err != nil {
		return err
	}
	active := 0
	for _, tc := range t.certs {
		if !tc.archived() {
			active++
		}
	}
	if active >= maxActiveCerts {
		return kit.StateConflict(
			"tunnel `%s` already has %d certificates; archive one first", t.id, maxActiveCerts)
	}
	tc := &tunnelCert{id: s.cfg.ids("tcrt_"), tunnelID: t.id, fingerprint: hex.EncodeToString(sum[:]),
		expiresAt: certExpiry(cert), createdAt: c.Now()}
	t.certs = append(t.certs, tc)
	return c.OK(tc.view())
}

func (s *Service) listTunnelCertificates(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseCursorPageParams(q, 1000)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.tunnelInWorkspaceLocked(c)
	if err != nil {
		return err
	}
	all := slices.SortedStableFunc(slices.Values(t.certs), kit.NewestFirst((*tunnelCert).position))
	keep := func(tc *tunnelCert) bool { return includeArchived || !tc.archived() }
	page := kit.PaginateByCursor(all, (*tunnelCert).position, keep, p)
	return c.OK(kit.MapCursorPage(page, (*tunnelCert).view))
}

// certificateLocked finds the path's certificate on the path's tunnel.
func (s *Service) certificateLocked(c *kit.Call) (*tunnel, *tunnelCert, error) {
	t, err := s.tunnelInWorkspaceLocked(c)
	if err != nil {
		return nil, nil, err
	}
	id := c.R.PathValue("certificate_id")
	for _, tc := range t.certs {
		if tc.id == id {
			return t, tc, nil
		}
	}
	return nil, nil, kit.NotFound("Tunnel certificate `%s` not found.", id)
}

func (s *Service) getTunnelCertificate(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, tc, err := s.certificateLocked(c)
	if err != nil {
		return err
	}
	return c.OK(tc.view())
}

// archiveTunnelCertificate removes a certificate from the trusted set:
// one-way and idempotent.
func (s *Service) archiveTunnelCertificate(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, tc, err := s.certificateLocked(c)
	if err != nil {
		return err
	}
	if !tc.archived() {
		tc.archivedAt = c.Now()
	}
	return c.OK(tc.view())
}

// certExpiry is when cert expires: its NotAfter, or the zero time (null)
// for the date RFC 5280 reserves for a certificate with no well-defined
// expiry, 9999-12-31T23:59:59Z.
func certExpiry(cert *x509.Certificate) time.Time {
	if cert.NotAfter.Year() >= 9999 {
		return time.Time{}
	}
	return cert.NotAfter.UTC()
}
