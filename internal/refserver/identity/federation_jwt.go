package identity

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// JWT verification for the jwt-bearer grant (docs/auth-wire.md 2.3), with
// go-jose: compact JWS only, asymmetric algorithms only, a kid naming a key
// of the issuer's JWKS that fits the algorithm, then the registered claims
// against the server clock with a 30-second leeway. Failures are reasons
// (ExchangeDenial.Reason), never messages on the wire.

// allowedJWTAlgorithms are the only algorithms accepted: none, HMAC and
// everything else (EdDSA included) are rejected while parsing.
var allowedJWTAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
}

// minRSABits is the RSA modulus floor (a choice, RFC 7518 §3.3).
const minRSABits = 2048

// jwtClaims are the verified claims an exchange goes on with.
type jwtClaims struct {
	sub string
	aud []string
	exp float64 // seconds since the epoch, as sent
	jti *string
	all map[string]json.RawMessage // for the claims matcher
}

// expTime is exp as a time.
func (c *jwtClaims) expTime() time.Time {
	sec, frac := math.Modf(c.exp)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// issuerSnapshot is what verification needs of an issuer, copied under
// Service.mu so that verification (and any fetch) runs without it.
type issuerSnapshot struct {
	id     string
	cfg    FederationIssuer
	inline []jose.JSONWebKey // nil when the keys are fetched
	cache  *jwksCache
}

// verifyJWT checks an assertion and returns its claims, or the reason it
// fails. now is the server clock.
func (s *Service) verifyJWT(ctx context.Context, token string, iss issuerSnapshot, now time.Time) (*jwtClaims, string) {
	if !compactJWS(token) {
		return nil, "jwt_malformed"
	}
	jws, err := jose.ParseSignedCompact(token, allowedJWTAlgorithms)
	if err != nil {
		var algErr *jose.ErrUnexpectedSignatureAlgorithm
		if errors.As(err, &algErr) {
			return nil, "jwt_algorithm"
		}
		return nil, "jwt_malformed"
	}
	header := jws.Signatures[0].Header
	if _, ok := header.ExtraHeaders["crit"]; ok {
		return nil, "jwt_crit" // we understand no extension (RFC 7515 §4.1.11)
	}
	if _, ok := header.ExtraHeaders["b64"]; ok {
		return nil, "jwt_crit" // RFC 7797 only ever comes with crit
	}
	if header.KeyID == "" {
		return nil, "jwt_kid_missing"
	}
	jwk, reason := s.issuerKey(ctx, iss, header.KeyID, now)
	if reason != "" {
		return nil, reason
	}
	key, reason := keyFor(jwk, header.Algorithm)
	if reason != "" {
		return nil, reason
	}
	payload, err := jws.Verify(key)
	if err != nil {
		return nil, "jwt_signature"
	}
	return checkClaims(payload, iss.cfg, now)
}

// compactJWS: three base64url segments without padding (RFC 7515 §7.1).
func compactJWS(token string) bool {
	if strings.Count(token, ".") != 2 {
		return false
	}
	for i := 0; i < len(token); i++ {
		c := token[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// keyFor checks that a JWK fits the header's algorithm (docs/auth-wire.md 2.3 "key
// fit") and returns the public key to verify with.
func keyFor(jwk jose.JSONWebKey, alg string) (any, string) {
	if jwk.Algorithm != "" && jwk.Algorithm != alg {
		return nil, "jwt_key_mismatch"
	}
	if jwk.Use != "" && jwk.Use != "sig" {
		return nil, "jwt_key_mismatch"
	}
	pub := jwk.Key
	if !jwk.IsPublic() {
		pub = jwk.Public().Key
	}
	switch k := pub.(type) {
	case *rsa.PublicKey:
		if !strings.HasPrefix(alg, "RS") && !strings.HasPrefix(alg, "PS") {
			return nil, "jwt_key_mismatch"
		}
		if k.N.BitLen() < minRSABits {
			return nil, "jwt_key_too_small"
		}
		return k, ""
	case *ecdsa.PublicKey:
		want := map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()}[alg]
		if want == nil || k.Curve != want {
			return nil, "jwt_key_mismatch"
		}
		return k, ""
	}
	return nil, "jwt_key_mismatch"
}

// checkClaims checks the registered claims of a verified payload.
func checkClaims(payload []byte, cfg FederationIssuer, now time.Time) (*jwtClaims, string) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(payload, &all); err != nil || all == nil {
		return nil, "jwt_malformed"
	}
	c := &jwtClaims{all: all}
	if iss, ok := claimString(all, "iss"); !ok || iss != cfg.IssuerURL {
		return nil, "jwt_issuer"
	}
	sub, ok := claimString(all, "sub")
	if !ok || sub == "" {
		return nil, "jwt_subject"
	}
	c.sub = sub
	if raw, ok := all["aud"]; ok {
		var one string
		var many []string
		switch {
		case json.Unmarshal(raw, &one) == nil && string(raw) != "null":
			c.aud = []string{one}
		case json.Unmarshal(raw, &many) == nil && string(raw) != "null":
			c.aud = many
		default:
			return nil, "jwt_audience"
		}
	}
	nowS := float64(now.UnixNano()) / 1e9
	leeway := federationLeeway.Seconds()
	exp, ok := claimNumber(all, "exp")
	if !ok {
		return nil, "jwt_exp_missing"
	}
	if !(exp > nowS-leeway) {
		return nil, "jwt_expired"
	}
	c.exp = exp
	iat, ok := claimNumber(all, "iat")
	if !ok {
		return nil, "jwt_iat_missing"
	}
	if iat > nowS+leeway {
		return nil, "jwt_issued_in_future"
	}
	if _, present := all["nbf"]; present {
		nbf, ok := claimNumber(all, "nbf")
		if !ok {
			return nil, "jwt_nbf_invalid"
		}
		if nbf > nowS+leeway {
			return nil, "jwt_not_yet_valid"
		}
	}
	if exp-iat > float64(cfg.MaxJWTLifetimeSeconds) {
		return nil, "jwt_lifetime_too_long"
	}
	if _, present := all["jti"]; present {
		jti, ok := claimString(all, "jti")
		if !ok {
			return nil, "jwt_jti_invalid"
		}
		c.jti = &jti
	}
	return c, ""
}

func claimString(all map[string]json.RawMessage, name string) (string, bool) {
	raw, ok := all[name]
	if !ok || string(raw) == "null" {
		return "", false
	}
	var v string
	return v, json.Unmarshal(raw, &v) == nil
}

func claimNumber(all map[string]json.RawMessage, name string) (float64, bool) {
	raw, ok := all[name]
	if !ok || string(raw) == "null" {
		return 0, false
	}
	var v float64
	return v, json.Unmarshal(raw, &v) == nil
}

// issuerKey finds the key a kid names: in the inline set, or in the fetched
// set, refetching once when the cached set lacks it (docs/auth-wire.md 8,
// C12).
func (s *Service) issuerKey(ctx context.Context, iss issuerSnapshot, kid string, now time.Time) (jose.JSONWebKey, string) {
	if iss.inline != nil {
		if k, ok := findKey(iss.inline, kid); ok {
			return k, ""
		}
		return jose.JSONWebKey{}, "jwt_kid_unknown"
	}
	c := iss.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	fresh := false
	if !c.loaded || now.Sub(c.fetchedAt) >= jwksCacheFor || now.Before(c.fetchedAt) {
		if err := c.refresh(ctx, iss.cfg, now); err != nil {
			return jose.JSONWebKey{}, "jwks_fetch_failed"
		}
		fresh = true
	}
	if k, ok := findKey(c.keys, kid); ok {
		return k, ""
	}
	if fresh {
		return jose.JSONWebKey{}, "jwt_kid_unknown"
	}
	if err := c.refresh(ctx, iss.cfg, now); err != nil {
		return jose.JSONWebKey{}, "jwks_fetch_failed"
	}
	if k, ok := findKey(c.keys, kid); ok {
		return k, ""
	}
	return jose.JSONWebKey{}, "jwt_kid_unknown"
}

func findKey(keys []jose.JSONWebKey, kid string) (jose.JSONWebKey, bool) {
	for _, k := range keys {
		if k.KeyID == kid {
			return k, true
		}
	}
	return jose.JSONWebKey{}, false
}

// refresh fetches the key set (explicit_url, or discovery then jwks_uri).
// A failed fetch leaves the cache as it was.
func (c *jwksCache) refresh(ctx context.Context, cfg FederationIssuer, now time.Time) error {
	jwksURL := cfg.JWKSURL
	if jwksURL == "" {
		base := cfg.DiscoveryBase
		if base == "" {
			base = cfg.IssuerURL
		}
		var doc struct {
			JWKSURI string `json:"jwks_uri"`
		}
		if err := fetchJSON(ctx, strings.TrimSuffix(base, "/")+"/.well-known/openid-configuration", &doc); err != nil {
			return err
		}
		if err := checkFetchURL(doc.JWKSURI); err != nil {
			return fmt.Errorf("discovery jwks_uri: %w", err)
		}
		jwksURL = doc.JWKSURI
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := fetchJSON(ctx, jwksURL, &set); err != nil {
		return err
	}
	if set.Keys == nil {
		return errors.New("JWKS document without keys")
	}
	keys := make([]jose.JSONWebKey, 0, len(set.Keys))
	for _, raw := range set.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil || !k.Valid() {
			continue // a key of a type we do not know cannot verify anything
		}
		keys = append(keys, k)
	}
	c.keys, c.fetchedAt, c.loaded = keys, now, true
	return nil
}

// jwksClient fetches key sets. No keep-alive: a fetch leaves no connection
// (nor goroutine) behind.
var jwksClient = &http.Client{
	Timeout:   jwksFetchTimeout,
	Transport: &http.Transport{DisableKeepAlives: true},
}

// fetchJSON GETs a JSON document: 200, application/json (or a +json type),
// at most 1 MiB.
func fetchJSON(ctx context.Context, url string, dst any) error {
	ctx, cancel := context.WithTimeout(ctx, jwksFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := jwksClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", url, res.StatusCode)
	}
	mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return fmt.Errorf("GET %s: content type %q", url, res.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, jwksMaxDocumentBytes+1))
	if err != nil {
		return err
	}
	if len(body) > jwksMaxDocumentBytes {
		return fmt.Errorf("GET %s: document too large", url)
	}
	return json.Unmarshal(body, dst)
}
