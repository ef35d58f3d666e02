package tunnels_test

import (
	"context"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	create := func(name string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: name})
			return err
		}
	}
	get := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Tunnels.Get(ctx, id); return err }
	}
	archive := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Archive(ctx, id)
			return err
		}
	}
	list := func(p tunnels.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Tunnels.List(ctx, p); return err }
	}
	all := func(p tunnels.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Tunnels.All(ctx, p))
		}
	}
	client := env.Client(t)
	tn, err := client.Tunnels.Create(context.Background(), tunnels.CreateParams{})
	if err != nil {
		t.Fatal(err)
	}
	reveal := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.RevealToken(ctx, id)
			return err
		}
	}
	rotate := func(id, reason string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.RotateToken(ctx, id, tunnels.RotateTokenParams{Reason: reason})
			return err
		}
	}
	// rotateRaw sends a reason the SDK would refuse, for the server's rule.
	rotateRaw := func(reason string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return c.Execute(ctx, http.MethodPost, "/v1/tunnels/"+tn.ID+"/rotate_token", map[string]string{"reason": reason}, nil,
				option.WithBeta("mcp-tunnels-2026-06-22"))
		}
	}
	addCert := func(text string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: text})
			return err
		}
	}
	getCert := func(tunnelID, certID string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Certificates.Get(ctx, tunnelID, certID)
			return err
		}
	}
	archiveCert := func(tunnelID, certID string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Certificates.Archive(ctx, tunnelID, certID)
			return err
		}
	}
	listCerts := func(p tunnels.CertificateListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Certificates.List(ctx, tn.ID, p)
			return err
		}
	}
	ca, _ := newCert(t, true, expiry)
	leaf, _ := newCert(t, false, expiry)
	keyBlock := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not a key")}))
	garbled := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")}))
	reftest.RunBadInput(t, env, client, []badInput{
		{"reveal empty id", reveal(""), "tunnel_id", "must not be empty", true},
		{"rotate empty id", rotate("", ""), "tunnel_id", "must not be empty", true},
		{"rotate reason 1001", rotate(tn.ID, strings.Repeat("é", 1001)), "reason", "between 1 and 1000 characters", true},
		{"rotate reason 1001 on the server", rotateRaw(strings.Repeat("é", 1001)), "reason", "between 1 and 1000 characters", false},
		{"rotate reason empty on the server", rotateRaw(""), "reason", "between 1 and 1000 characters", false},
		{"certificate missing", addCert(""), "ca_certificate_pem", "is required", true},
		{"certificate 8193 bytes", addCert(ca + strings.Repeat(" ", 8193-len(ca))), "ca_certificate_pem", "at most 8192 bytes", true},
		{"certificate not PEM", addCert("MIIB..."), "ca_certificate_pem", "PEM-encoded certificate", true},
		{"certificate a private key", addCert(keyBlock), "ca_certificate_pem", "must hold a CERTIFICATE block", false},
		{"certificate and a private key", addCert(ca + keyBlock), "ca_certificate_pem", "exactly one certificate", false},
		{"certificate two", addCert(ca + ca), "ca_certificate_pem", "exactly one certificate", false},
		{"certificate not X.509", addCert(garbled), "ca_certificate_pem", "not a valid X.509 certificate", false},
		{"certificate not a CA", addCert(leaf), "ca_certificate_pem", "must be a CA certificate", false},
		{"certificate get empty tunnel id", getCert("", "tcrt_1"), "tunnel_id", "must not be empty", true},
		{"certificate get empty id", getCert(tn.ID, ""), "certificate_id", "must not be empty", true},
		{"certificate archive empty id", archiveCert(tn.ID, ""), "certificate_id", "must not be empty", true},
		{"certificate list limit 1001", listCerts(tunnels.CertificateListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"certificate list page not a cursor", listCerts(tunnels.CertificateListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"create display_name 256", create(strings.Repeat("a", 256)), "display_name", "between 1 and 255 characters", true},
		{"create display_name counts characters", create(strings.Repeat("é", 256)), "display_name", "between 1 and 255 characters", true},
		{"get empty id", get(""), "tunnel_id", "must not be empty", true},
		{"archive empty id", archive(""), "tunnel_id", "must not be empty", true},
		{"list limit -1", list(tunnels.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(tunnels.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list page not a cursor", list(tunnels.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"list page undecodable", list(tunnels.ListParams{Page: "page_!!"}), "page", "invalid cursor", false},
		{"all limit 1001", all(tunnels.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"all page not a cursor", all(tunnels.ListParams{Page: "nope"}), "page", "invalid cursor", false},
	})
}
