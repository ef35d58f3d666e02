package vaults

import (
	"encoding/json"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The auth union of a credential (docs/vaults-wire.md 2 and 3): what a
// request may send, what is stored, and the view, which leaves every secret
// out.

const (
	authMCPOAuth     = "mcp_oauth"
	authStaticBearer = "static_bearer"
	authEnvVar       = "environment_variable"

	endpointNone  = "none"
	endpointBasic = "client_secret_basic"
	endpointPost  = "client_secret_post"

	urlMax          = 2048
	secretMax       = 16384 // **choice**: a bound on every secret
	secretNameMax   = 255
	allowedHostsMax = 16
)

var authTypes = []string{authMCPOAuth, authStaticBearer, authEnvVar}

// auth is a stored credential's auth. Secrets live here and nowhere else.
type auth struct {
	typ string

	serverURL   string    // mcp_oauth, static_bearer
	accessToken string    // mcp_oauth
	expiresAt   time.Time // mcp_oauth; zero: unknown
	refresh     *refresh  // mcp_oauth; nil: none
	token       string    // static_bearer

	secretName   string   // environment_variable
	secretValue  string   // environment_variable
	limitedHosts []string // environment_variable; nil: unrestricted
	inBody       bool     // environment_variable
	inHeader     bool     // environment_variable
}

type refresh struct {
	clientID      string
	refreshToken  string
	tokenEndpoint string
	endpointAuth  string // none, client_secret_basic, client_secret_post
	clientSecret  string
	resource      string // "": unset
	scope         string // "": unset
}

func (a *auth) mcpServerURL() string { return a.serverURL }

// uniqueKey is what no two unarchived credentials of a vault share: the
// MCP server, or the variable name.
func (a *auth) uniqueKey() string {
	if a.typ == authEnvVar {
		return "env:" + a.secretName
	}
	return "mcp:" + a.serverURL
}

// authBody is every member any auth request may carry; parseAuth checks
// which ones the type allows.
type authBody struct {
	Type              kit.Optional[string]          `json:"type"`
	MCPServerURL      kit.Optional[string]          `json:"mcp_server_url"`
	AccessToken       kit.Optional[string]          `json:"access_token"`
	ExpiresAt         kit.Optional[string]          `json:"expires_at"`
	Refresh           kit.Optional[json.RawMessage] `json:"refresh"`
	Token             kit.Optional[string]          `json:"token"`
	SecretName        kit.Optional[string]          `json:"secret_name"`
	SecretValue       kit.Optional[string]          `json:"secret_value"`
	Networking        kit.Optional[json.RawMessage] `json:"networking"`
	InjectionLocation kit.Optional[json.RawMessage] `json:"injection_location"`
}

type refreshBody struct {
	ClientID          kit.Optional[string]          `json:"client_id"`
	RefreshToken      kit.Optional[string]          `json:"refresh_token"`
	TokenEndpoint     kit.Optional[string]          `json:"token_endpoint"`
	TokenEndpointAuth kit.Optional[json.RawMessage] `json:"token_endpoint_auth"`
	Resource          kit.Optional[string]          `json:"resource"`
	Scope             kit.Optional[string]          `json:"scope"`
}

type endpointAuthBody struct {
	Type         kit.Optional[string] `json:"type"`
	ClientSecret kit.Optional[string] `json:"client_secret"`
}

type networkingBody struct {
	Type         kit.Optional[string]          `json:"type"`
	AllowedHosts kit.Optional[json.RawMessage] `json:"allowed_hosts"`
}

type locationBody struct {
	Body   kit.Optional[bool] `json:"body"`
	Header kit.Optional[bool] `json:"header"`
}

// allowed lists the members each type accepts (besides type), on create
// and on update.
var allowed = map[string]struct{ create, update []string }{
	authMCPOAuth:     {[]string{"mcp_server_url", "access_token", "expires_at", "refresh"}, []string{"access_token", "expires_at", "refresh"}},
	authStaticBearer: {[]string{"mcp_server_url", "token"}, []string{"token"}},
	authEnvVar:       {[]string{"secret_name", "secret_value", "networking", "injection_location"}, []string{"secret_value", "networking", "injection_location"}},
}

// decodeAuth reads the auth object at "auth", refusing members its type
// does not take.
func decodeAuth(raw json.RawMessage, creating bool) (string, authBody, error) {
	const path = "auth"
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return "", authBody{}, err
	}
	rules, ok := allowed[typ]
	if !ok {
		return "", authBody{}, kit.BadType(path, authTypes...)
	}
	var members map[string]json.RawMessage
	_ = json.Unmarshal(raw, &members)
	accept := rules.update
	if creating {
		accept = rules.create
	}
	for _, k := range kit.SortedKeys(members) {
		if k != "type" && !contains(accept, k) {
			return "", authBody{}, kit.InvalidField(kit.JoinPath(path, k), "unknown field")
		}
	}
	var body authBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return "", authBody{}, err
	}
	return typ, body, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// requiredString is a member that must be a non-empty string of at most
// maxLen characters.
func requiredString(path string, o kit.Optional[string], maxLen int) (string, error) {
	if err := kit.Required(path, o); err != nil {
		return "", err
	}
	if o.Value == "" {
		return "", kit.InvalidField(path, "is required")
	}
	return o.Value, kit.CheckLength(path, o.Value, 1, maxLen)
}

// optionalSecret is an update's new secret: omitted keeps it.
func optionalSecret(path string, o kit.Optional[string], cur *string) error {
	if !o.Set {
		return nil
	}
	v, err := requiredString(path, o, secretMax)
	if err != nil {
		return err
	}
	*cur = v
	return nil
}

func checkURL(path, s string) error {
	if err := kit.CheckLength(path, s, 1, urlMax); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return kit.InvalidField(path, "must be an absolute http or https URL")
	}
	return nil
}

func parseExpiry(path string, o kit.Optional[string], now time.Time) (time.Time, error) {
	if !o.Present() {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, o.Value)
	if err != nil {
		return time.Time{}, kit.InvalidField(path, "must be an RFC 3339 timestamp")
	}
	if !t.After(now) {
		return time.Time{}, kit.InvalidField(path, "must be in the future")
	}
	return t.UTC().Truncate(time.Microsecond), nil
}

// parseAuth reads a create request's auth.
func parseAuth(raw json.RawMessage, now time.Time) (*auth, error) {
	typ, b, err := decodeAuth(raw, true)
	if err != nil {
		return nil, err
	}
	a := &auth{typ: typ}
	switch typ {
	case authMCPOAuth, authStaticBearer:
		if a.serverURL, err = requiredString("auth.mcp_server_url", b.MCPServerURL, urlMax); err != nil {
			return nil, err
		}
		if err := checkURL("auth.mcp_server_url", a.serverURL); err != nil {
			return nil, err
		}
		if typ == authStaticBearer {
			a.token, err = requiredString("auth.token", b.Token, secretMax)
			return a, err
		}
		if a.accessToken, err = requiredString("auth.access_token", b.AccessToken, secretMax); err != nil {
			return nil, err
		}
		if a.expiresAt, err = parseExpiry("auth.expires_at", b.ExpiresAt, now); err != nil {
			return nil, err
		}
		if b.Refresh.Present() {
			a.refresh, err = parseRefresh(b.Refresh.Value)
		}
		return a, err
	default: // environment_variable
		if a.secretName, err = requiredString("auth.secret_name", b.SecretName, secretNameMax); err != nil {
			return nil, err
		}
		if !envName.MatchString(a.secretName) {
			return nil, kit.InvalidField("auth.secret_name", "must start with a letter or `_` and hold only letters, digits and `_`")
		}
		if a.secretValue, err = requiredString("auth.secret_value", b.SecretValue, secretMax); err != nil {
			return nil, err
		}
		if err := kit.Required("auth.networking", b.Networking); err != nil {
			return nil, err
		}
		if a.limitedHosts, err = parseNetworking(b.Networking.Value); err != nil {
			return nil, err
		}
		a.inBody, a.inHeader = true, true
		if err := kit.NotNull("auth.injection_location", b.InjectionLocation); err != nil {
			return nil, err
		}
		if b.InjectionLocation.Set {
			return a, applyLocation(a, b.InjectionLocation.Value)
		}
		return a, nil
	}
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func parseRefresh(raw json.RawMessage) (*refresh, error) {
	const path = "auth.refresh"
	var b refreshBody
	if err := kit.DecodeAt(path, raw, &b); err != nil {
		return nil, err
	}
	r := &refresh{}
	var err error
	if r.clientID, err = requiredString(path+".client_id", b.ClientID, 255); err != nil {
		return nil, err
	}
	if r.refreshToken, err = requiredString(path+".refresh_token", b.RefreshToken, secretMax); err != nil {
		return nil, err
	}
	if r.tokenEndpoint, err = requiredString(path+".token_endpoint", b.TokenEndpoint, urlMax); err != nil {
		return nil, err
	}
	if err := checkURL(path+".token_endpoint", r.tokenEndpoint); err != nil {
		return nil, err
	}
	if err := kit.Required(path+".token_endpoint_auth", b.TokenEndpointAuth); err != nil {
		return nil, err
	}
	ep := path + ".token_endpoint_auth"
	typ, err := kit.TypeAt(ep, b.TokenEndpointAuth.Value)
	if err != nil {
		return nil, err
	}
	var eb endpointAuthBody
	if err := kit.DecodeAt(ep, b.TokenEndpointAuth.Value, &eb); err != nil {
		return nil, err
	}
	switch typ {
	case endpointNone:
		if eb.ClientSecret.Set {
			return nil, kit.InvalidField(ep+".client_secret", "unknown field")
		}
	case endpointBasic, endpointPost:
		if r.clientSecret, err = requiredString(ep+".client_secret", eb.ClientSecret, secretMax); err != nil {
			return nil, err
		}
	default:
		return nil, kit.BadType(ep, endpointNone, endpointBasic, endpointPost)
	}
	r.endpointAuth = typ
	if err := kit.NotNull(path+".resource", b.Resource); err != nil {
		return nil, err
	}
	if err := kit.NotNull(path+".scope", b.Scope); err != nil {
		return nil, err
	}
	r.resource, r.scope = b.Resource.Value, b.Scope.Value
	return r, nil
}

// parseNetworking returns the allowed hosts, nil for unrestricted.
func parseNetworking(raw json.RawMessage) ([]string, error) {
	const path = "auth.networking"
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return nil, err
	}
	var b networkingBody
	if err := kit.DecodeAt(path, raw, &b); err != nil {
		return nil, err
	}
	switch typ {
	case "unrestricted":
		if b.AllowedHosts.Set {
			return nil, kit.InvalidField(path+".allowed_hosts", "unknown field")
		}
		return nil, nil
	case "limited":
		if err := kit.Required(path+".allowed_hosts", b.AllowedHosts); err != nil {
			return nil, err
		}
		hosts, err := kit.StringsAt(path+".allowed_hosts", b.AllowedHosts.Value, checkHost)
		if err != nil {
			return nil, err
		}
		if err := kit.CheckCount(path+".allowed_hosts", len(hosts), 1, allowedHostsMax); err != nil {
			return nil, err
		}
		return hosts, nil
	}
	return nil, kit.BadType(path, "unrestricted", "limited")
}

var hostLabel = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// checkHost accepts a host name, an IPv4 address, or "*." and a host name.
func checkHost(path, h string) error {
	bad := kit.InvalidField(path, "must be a host name, an IPv4 address or `*.` and a host name")
	name := strings.TrimPrefix(h, "*.")
	if ip := net.ParseIP(name); ip != nil {
		if ip.To4() == nil || name != h {
			return bad
		}
		return nil
	}
	if name == "" || len(name) > 253 {
		return bad
	}
	for label := range strings.SplitSeq(name, ".") {
		if !hostLabel.MatchString(label) {
			return bad
		}
	}
	return nil
}

func applyLocation(a *auth, raw json.RawMessage) error {
	const path = "auth.injection_location"
	var b locationBody
	if err := kit.DecodeAt(path, raw, &b); err != nil {
		return err
	}
	if err := kit.NotNull(path+".body", b.Body); err != nil {
		return err
	}
	if err := kit.NotNull(path+".header", b.Header); err != nil {
		return err
	}
	if b.Body.Set {
		a.inBody = b.Body.Value
	}
	if b.Header.Set {
		a.inHeader = b.Header.Value
	}
	if !a.inBody && !a.inHeader {
		return kit.InvalidField(path, "must enable `body` or `header`")
	}
	return nil
}

// applyUpdate applies an update's auth to a copy of cur and returns it.
func applyUpdate(cur *auth, raw json.RawMessage, now time.Time) (*auth, error) {
	typ, b, err := decodeAuth(raw, false)
	if err != nil {
		return nil, err
	}
	if typ != cur.typ {
		return nil, kit.InvalidField("auth.type", "must be `%s`, the credential's type", cur.typ)
	}
	a := *cur
	if cur.refresh != nil {
		r := *cur.refresh
		a.refresh = &r
	}
	a.limitedHosts = append([]string(nil), cur.limitedHosts...)
	switch typ {
	case authStaticBearer:
		return &a, optionalSecret("auth.token", b.Token, &a.token)
	case authMCPOAuth:
		if err := optionalSecret("auth.access_token", b.AccessToken, &a.accessToken); err != nil {
			return nil, err
		}
		if b.ExpiresAt.Present() {
			if a.expiresAt, err = parseExpiry("auth.expires_at", b.ExpiresAt, now); err != nil {
				return nil, err
			}
		}
		if b.Refresh.Present() {
			if err := updateRefresh(a.refresh, b.Refresh.Value); err != nil {
				return nil, err
			}
		}
		return &a, nil
	default:
		if err := optionalSecret("auth.secret_value", b.SecretValue, &a.secretValue); err != nil {
			return nil, err
		}
		if b.Networking.Present() {
			if a.limitedHosts, err = parseNetworking(b.Networking.Value); err != nil {
				return nil, err
			}
		}
		if b.InjectionLocation.Present() {
			if err := applyLocation(&a, b.InjectionLocation.Value); err != nil {
				return nil, err
			}
		}
		return &a, nil
	}
}

type refreshUpdateBody struct {
	RefreshToken      kit.Optional[string]          `json:"refresh_token"`
	Scope             kit.Optional[string]          `json:"scope"`
	TokenEndpointAuth kit.Optional[json.RawMessage] `json:"token_endpoint_auth"`
}

func updateRefresh(r *refresh, raw json.RawMessage) error {
	const path = "auth.refresh"
	var b refreshUpdateBody
	if err := kit.DecodeAt(path, raw, &b); err != nil {
		return err
	}
	if r == nil {
		return kit.InvalidField(path, "the credential has no refresh configuration")
	}
	if err := optionalSecret(path+".refresh_token", b.RefreshToken, &r.refreshToken); err != nil {
		return err
	}
	if b.Scope.Present() {
		r.scope = b.Scope.Value // "" clears it
	}
	if b.TokenEndpointAuth.Present() {
		ep := path + ".token_endpoint_auth"
		typ, err := kit.TypeAt(ep, b.TokenEndpointAuth.Value)
		if err != nil {
			return err
		}
		if typ != endpointBasic && typ != endpointPost {
			return kit.BadType(ep, endpointBasic, endpointPost)
		}
		var eb endpointAuthBody
		if err := kit.DecodeAt(ep, b.TokenEndpointAuth.Value, &eb); err != nil {
			return err
		}
		if eb.ClientSecret.Set {
			if r.endpointAuth == endpointNone {
				return kit.InvalidField(ep, "the credential's token endpoint takes no client secret")
			}
			// The stored type is kept, whichever one was sent.
			if err := optionalSecret(ep+".client_secret", eb.ClientSecret, &r.clientSecret); err != nil {
				return err
			}
		}
	}
	return nil
}

// The views: no secret is a member of any of them.

type authJSON struct {
	Type              string          `json:"type"`
	MCPServerURL      string          `json:"mcp_server_url,omitempty"`
	ExpiresAt         *kit.Timestamp  `json:"expires_at,omitempty"`
	Refresh           *refreshJSON    `json:"refresh,omitempty"`
	SecretName        string          `json:"secret_name,omitempty"`
	Networking        *networkingJSON `json:"networking,omitempty"`
	InjectionLocation *locationJSON   `json:"injection_location,omitempty"`
}

// mcpOAuthJSON is the mcp_oauth view, whose null members are written out.
type mcpOAuthJSON struct {
	Type         string         `json:"type"`
	MCPServerURL string         `json:"mcp_server_url"`
	ExpiresAt    *kit.Timestamp `json:"expires_at"`
	Refresh      *refreshJSON   `json:"refresh"`
}

type refreshJSON struct {
	ClientID          string   `json:"client_id"`
	TokenEndpoint     string   `json:"token_endpoint"`
	TokenEndpointAuth typeOnly `json:"token_endpoint_auth"`
	Resource          *string  `json:"resource"`
	Scope             *string  `json:"scope"`
}

type typeOnly struct {
	Type string `json:"type"`
}

type networkingJSON struct {
	Type         string   `json:"type"`
	AllowedHosts []string `json:"allowed_hosts,omitempty"`
}

type locationJSON struct {
	Body   bool `json:"body"`
	Header bool `json:"header"`
}

func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *auth) view() any {
	switch a.typ {
	case authMCPOAuth:
		v := mcpOAuthJSON{Type: a.typ, MCPServerURL: a.serverURL, ExpiresAt: kit.OptionalTimestamp(a.expiresAt)}
		if r := a.refresh; r != nil {
			v.Refresh = &refreshJSON{ClientID: r.clientID, TokenEndpoint: r.tokenEndpoint,
				TokenEndpointAuth: typeOnly{Type: r.endpointAuth}, Resource: optionalString(r.resource), Scope: optionalString(r.scope)}
		}
		return v
	case authStaticBearer:
		return authJSON{Type: a.typ, MCPServerURL: a.serverURL}
	}
	n := &networkingJSON{Type: "unrestricted"}
	if a.limitedHosts != nil {
		n = &networkingJSON{Type: "limited", AllowedHosts: a.limitedHosts}
	}
	return authJSON{Type: a.typ, SecretName: a.secretName, Networking: n,
		InjectionLocation: &locationJSON{Body: a.inBody, Header: a.inHeader}}
}
