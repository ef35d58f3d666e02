package conformance_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestTunnels creates, reads, lists and archives a tunnel. Tunnels are a
// research preview: a target that does not offer them to the key (403 or
// 404 on create) skips the test.
func TestTunnels(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	display := name(t)
	tn, err := c.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: display})
	if !tg.Reference() && (errors.Is(err, apierror.ErrPermission) || errors.Is(err, apierror.ErrNotFound)) {
		t.Skipf("tunnels (research preview) are not available on %s: %v", tg.Desc, err)
	}
	if err != nil {
		t.Fatalf("create tunnel: %v", err)
	}
	cleanup(t, "archive tunnel "+tn.ID, func(ctx context.Context) error {
		_, err := c.Tunnels.Archive(ctx, tn.ID)
		return err
	})
	if tn.Type != "tunnel" || !strings.HasPrefix(tn.ID, "tnl_") || tn.DisplayName != display || tn.Domain == "" || tn.Archived() {
		t.Fatalf("created tunnel: %+v", tn)
	}
	got, err := c.Tunnels.Get(ctx, tn.ID)
	if err != nil || got.Domain != tn.Domain {
		t.Fatalf("get tunnel: %v, %+v", err, got)
	}
	listed := func(includeArchived bool) bool {
		for x, err := range c.Tunnels.All(ctx, tunnels.ListParams{IncludeArchived: includeArchived}) {
			if err != nil {
				t.Fatalf("list tunnels: %v", err)
			}
			if x.ID == tn.ID {
				return true
			}
		}
		return false
	}
	if !listed(false) {
		t.Errorf("tunnel %s is not listed", tn.ID)
	}
	arch, err := c.Tunnels.Archive(ctx, tn.ID)
	if err != nil || !arch.Archived() || arch.Domain != tn.Domain {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	if listed(false) {
		t.Errorf("archived tunnel %s listed without IncludeArchived", tn.ID)
	}
	if !listed(true) {
		t.Errorf("archived tunnel %s not listed with IncludeArchived", tn.ID)
	}
}

// TestTunnelTokenAndCertificates reveals and rotates a tunnel's connector
// token and registers, lists and archives a CA certificate.
func TestTunnelTokenAndCertificates(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	tn, err := c.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: name(t)})
	if !tg.Reference() && (errors.Is(err, apierror.ErrPermission) || errors.Is(err, apierror.ErrNotFound)) {
		t.Skipf("tunnels (research preview) are not available on %s: %v", tg.Desc, err)
	}
	if err != nil {
		t.Fatalf("create tunnel: %v", err)
	}
	cleanup(t, "archive tunnel "+tn.ID, func(ctx context.Context) error {
		_, err := c.Tunnels.Archive(ctx, tn.ID)
		return err
	})

	tok, err := c.Tunnels.RevealToken(ctx, tn.ID)
	if err != nil || tok.Type != "tunnel_token" || tok.ID == "" || tok.TunnelToken == "" {
		t.Fatalf("reveal token: %v, %v", err, tok)
	}
	again, err := c.Tunnels.RevealToken(ctx, tn.ID)
	if err != nil || again.ID != tok.ID || again.TunnelToken != tok.TunnelToken {
		t.Errorf("a second reveal gave another token (id %s, was %s): %v", again.ID, tok.ID, err)
	}
	rotated, err := c.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{Reason: "conformance"})
	if err != nil || rotated.ID == tok.ID || rotated.TunnelToken == tok.TunnelToken {
		t.Errorf("rotate token: %v (id %s, was %s)", err, rotated.ID, tok.ID)
	}
	if strings.Contains(fmt.Sprintf("%v %+v", tok, rotated), string(tok.TunnelToken)) {
		t.Errorf("a printed token shows its value")
	}

	pemText, fingerprint := conformanceCA(t)
	cert, err := c.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: pemText})
	if err != nil {
		t.Fatalf("add certificate: %v", err)
	}
	if cert.Type != "tunnel_certificate" || cert.TunnelID != tn.ID || cert.Fingerprint != fingerprint || cert.Archived() {
		t.Fatalf("added certificate: %+v (fingerprint want %s)", cert, fingerprint)
	}
	found := false
	for x, err := range c.Tunnels.Certificates.All(ctx, tn.ID, tunnels.CertificateListParams{}) {
		if err != nil {
			t.Fatalf("list certificates: %v", err)
		}
		found = found || x.ID == cert.ID
	}
	if !found {
		t.Errorf("certificate %s is not listed", cert.ID)
	}
	arch, err := c.Tunnels.Certificates.Archive(ctx, tn.ID, cert.ID)
	if err != nil || !arch.Archived() {
		t.Fatalf("archive certificate: %v, %+v", err, arch)
	}
	got, err := c.Tunnels.Certificates.Get(ctx, tn.ID, cert.ID)
	if err != nil || !got.ArchivedAt.Equal(arch.ArchivedAt) {
		t.Errorf("get archived certificate: %v, %+v", err, got)
	}
}

// conformanceCA makes a self-signed CA certificate: its PEM and the hex
// SHA-256 of its DER.
func conformanceCA(t *testing.T) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano()), Subject: pkix.Name{CommonName: "conformance CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), hex.EncodeToString(sum[:])
}
