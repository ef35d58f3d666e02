package tunnels_test

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
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// newCert returns a self-signed certificate (a CA when ca is set) valid
// until notAfter, as PEM, with the hex SHA-256 of its DER.
func newCert(t *testing.T, ca bool, notAfter time.Time) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "gateway CA"},
		NotBefore:             time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              notAfter,
		IsCA:                  ca,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	sum := sha256.Sum256(der)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), hex.EncodeToString(sum[:])
}

var expiry = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

func TestCertificates(t *testing.T) {
	client := reftest.New(t).Client(t)
	ctx := context.Background()
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)

	pemA, fpA := newCert(t, true, expiry)
	a, err := client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: pemA})
	require.NoError(t, err)
	require.Equal(t, "tunnel_certificate", a.Type)
	require.True(t, strings.HasPrefix(a.ID, "tcrt_"))
	require.Equal(t, tn.ID, a.TunnelID)
	require.Equal(t, fpA, a.Fingerprint)
	require.True(t, expiry.Equal(a.ExpiresAt))
	require.False(t, a.Archived())

	forever, _ := newCert(t, true, time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))
	b, err := client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: forever})
	require.NoError(t, err)
	require.True(t, b.ExpiresAt.IsZero(), "a certificate without a well-defined expiry has none")

	// At most two trusted certificates: archive one to add a third.
	pemC, _ := newCert(t, true, expiry)
	_, err = client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: pemC})
	requireStatus(t, err, http.StatusConflict, "archive one first")
	archived, err := client.Tunnels.Certificates.Archive(ctx, tn.ID, a.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	again, err := client.Tunnels.Certificates.Archive(ctx, tn.ID, a.ID)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt)
	c, err := client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: pemC})
	require.NoError(t, err)

	got, err := client.Tunnels.Certificates.Get(ctx, tn.ID, c.ID)
	require.NoError(t, err)
	require.Equal(t, c, got)
	ids := func(p tunnels.CertificateListParams) []string {
		var out []string
		for x, err := range client.Tunnels.Certificates.All(ctx, tn.ID, p) {
			require.NoError(t, err)
			out = append(out, x.ID)
		}
		return out
	}
	require.ElementsMatch(t, []string{b.ID, c.ID}, ids(tunnels.CertificateListParams{Limit: 1}))
	require.ElementsMatch(t, []string{a.ID, b.ID, c.ID}, ids(tunnels.CertificateListParams{IncludeArchived: true}))

	// A certificate belongs to its tunnel.
	other, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	_, err = client.Tunnels.Certificates.Get(ctx, other.ID, c.ID)
	require.ErrorIs(t, err, apierror.ErrNotFound)

	// An archived tunnel takes no certificate.
	_, err = client.Tunnels.Archive(ctx, other.ID)
	require.NoError(t, err)
	_, err = client.Tunnels.Certificates.Create(ctx, other.ID, tunnels.CertificateCreateParams{CACertificatePEM: pemC})
	requireStatus(t, err, http.StatusConflict, "is archived")
}

func requireStatus(t *testing.T, err error, status int, msg string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode)
	require.ErrorContains(t, err, msg)
}
