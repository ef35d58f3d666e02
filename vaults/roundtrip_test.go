package vaults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// TestServerResponsesRoundTrip drives the reference server so that it
// sends every wire type and variant of the package, and checks each
// response against the round-trip rule (docs/wire-json.md): a credential
// without a display name among them, whose null must come back as null.
func TestServerResponsesRoundTrip(t *testing.T) {
	env, _, _ := newClockEnv(t)
	var rec wiretest.Recorder
	c := env.Client(t, rec.Option())
	ctx := context.Background()

	v := newVault(t, c, "round trip")
	gone := newVault(t, c, "archived")
	_, err := c.Vaults.Archive(ctx, gone.ID)
	require.NoError(t, err)
	basic := oauthParams()
	basic.Refresh.TokenEndpointAuth = vaults.ClientSecretBasic{ClientSecret: clientSec}
	none := oauthParams()
	none.Refresh.TokenEndpointAuth = vaults.TokenEndpointAuthNone{}
	bare := oauthParams()
	bare.Refresh = nil
	unrestricted := envParams()
	unrestricted.SecretName, unrestricted.Networking = "OTHER_KEY", &vaults.UnrestrictedNetworking{}
	for i, auth := range []vaults.AuthParam{
		oauthParams(), basic, none, bare,
		vaults.StaticBearerParams{MCPServerURL: "https://bearer.example.com/mcp", Token: bearerToken},
		envParams(), unrestricted,
	} {
		if o, ok := auth.(vaults.MCPOAuthParams); ok { // one credential per server url
			o.MCPServerURL = fmt.Sprintf("https://mcp%d.example.com/mcp", i)
			auth = o
		}
		p := vaults.CredentialCreateParams{Auth: auth}
		if i%2 == 0 {
			p.DisplayName, p.Metadata = "named", map[string]string{"k": "v"}
		}
		cred, err := c.Vaults.Credentials.Create(ctx, v.ID, p)
		require.NoError(t, err)
		if i == 0 {
			_, err = c.Vaults.Credentials.Validate(ctx, v.ID, cred.ID)
			require.NoError(t, err)
		}
		if i == 4 {
			_, err = c.Vaults.Credentials.Archive(ctx, v.ID, cred.ID)
			require.NoError(t, err)
		}
	}
	for _, err := range c.Vaults.All(ctx, vaults.ListParams{IncludeArchived: true}) {
		require.NoError(t, err)
	}
	for _, err := range c.Vaults.Credentials.All(ctx, v.ID, vaults.ListParams{IncludeArchived: true}) {
		require.NoError(t, err)
	}

	seen := map[string]bool{}
	check := func(kind string, data []byte) {
		t.Helper()
		var val any
		var ok bool
		switch kind {
		case "vault":
			val, ok = wiretest.RoundTrip(t, data, wiretest.Decode[vaults.Vault], true)
		case "credential":
			val, ok = wiretest.RoundTrip(t, data, wiretest.Decode[vaults.Credential], true)
			if strings.Contains(string(data), `"display_name":null`) {
				seen["null display_name"] = true
				cred := val.(vaults.Credential)
				out, err := json.Marshal(cred)
				require.NoError(t, err)
				require.Contains(t, string(out), `"display_name":null`)
			}
		case "validation":
			val, ok = wiretest.RoundTrip(t, data, wiretest.Decode[vaults.Validation], true)
		}
		require.True(t, ok, "%s does not decode: %s", kind, data)
		wiretest.Seen(val, seen)
	}
	for _, r := range rec.Bodies() {
		if r.Method == http.MethodDelete {
			continue
		}
		kind := "vault"
		switch {
		case strings.HasSuffix(r.Path, "/mcp_oauth_validate"):
			kind = "validation"
		case strings.Contains(r.Path, "/credentials"):
			kind = "credential"
		}
		if r.Method == http.MethodGet && (r.Path == "/v1/vaults" || strings.HasSuffix(r.Path, "/credentials")) {
			for _, item := range pageItems(t, r.Body) {
				check(kind, item)
			}
			continue
		}
		check(kind, r.Body)
	}
	for _, name := range []string{"Vault", "Credential", "MCPOAuthAuth", "Refresh", "TokenEndpointAuth", "StaticBearerAuth",
		"EnvironmentVariableAuth", "InjectionLocation", "UnrestrictedNetworking", "LimitedNetworking", "Validation", "null display_name"} {
		require.True(t, seen[name], "no %s was seen", name)
	}
}

// pageItems returns the items of a list page as sent.
func pageItems(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &page))
	return page.Data
}

// TestCorporaRoundTrip checks the documents of the fuzz corpora
// (testdata/<kind>), which hold what the reference server cannot send:
// members and kinds newer than this SDK, probe failures.
func TestCorporaRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for kind, decode := range map[string]func(*testing.T, []byte) (any, bool){
		"vault": func(t *testing.T, b []byte) (any, bool) {
			return wiretest.RoundTrip(t, b, wiretest.Decode[vaults.Vault], true)
		},
		"credential": func(t *testing.T, b []byte) (any, bool) {
			return wiretest.RoundTrip(t, b, wiretest.Decode[vaults.Credential], true)
		},
		"validation": func(t *testing.T, b []byte) (any, bool) {
			return wiretest.RoundTrip(t, b, wiretest.Decode[vaults.Validation], true)
		},
	} {
		files, err := filepath.Glob(filepath.Join("testdata", kind, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, kind)
		for _, name := range files {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			v, ok := decode(t, data)
			require.True(t, ok, "%s does not decode", name)
			wiretest.Seen(v, seen)
		}
	}
	for _, name := range []string{"UnknownAuth", "UnknownNetworking", "Probe", "RefreshOutcome", "HTTPResponse"} {
		require.True(t, seen[name], "no %s in the corpora", name)
	}
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."),
		vaults.Vault{}, vaults.Credential{}, vaults.MCPOAuthAuth{}, vaults.Refresh{}, vaults.TokenEndpointAuth{},
		vaults.StaticBearerAuth{}, vaults.EnvironmentVariableAuth{}, vaults.InjectionLocation{},
		vaults.UnrestrictedNetworking{}, vaults.LimitedNetworking{}, vaults.Validation{}, vaults.Probe{},
		vaults.RefreshOutcome{}, vaults.HTTPResponse{})
}
