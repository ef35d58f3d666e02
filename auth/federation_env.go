package auth

import (
	"fmt"
	"os"
)

// Environment variables read by FederationConfigFromEnv
// (docs/auth-wire.md 2.9: the real platform's ANTHROPIC_* variables,
// renamed). VENDOR_BASE_URL, read by
// Federation when BaseURL is empty, completes them.
const (
	EnvFederationRuleID  = "VENDOR_FEDERATION_RULE_ID"
	EnvOrganizationID    = "VENDOR_ORGANIZATION_ID"
	EnvServiceAccountID  = "VENDOR_SERVICE_ACCOUNT_ID"
	EnvIdentityTokenFile = "VENDOR_IDENTITY_TOKEN_FILE"
	EnvIdentityToken     = "VENDOR_IDENTITY_TOKEN"
	EnvWorkspaceID       = "VENDOR_WORKSPACE_ID"
)

// FederationConfigFromEnv builds a FederationConfig from the environment:
// VENDOR_FEDERATION_RULE_ID, VENDOR_ORGANIZATION_ID,
// VENDOR_SERVICE_ACCOUNT_ID, VENDOR_IDENTITY_TOKEN_FILE (read on every
// exchange) or else VENDOR_IDENTITY_TOKEN, and VENDOR_WORKSPACE_ID (sent in
// the exchange body only). BaseURL is left empty, so that Federation reads
// VENDOR_BASE_URL as the client does. Adjust the result before passing it
// to Federation if needed.
//
// VENDOR_API_KEY is not consulted here. The real platform's precedence
// (an API key wins over federation) is the client's: without
// option.WithCredentials it uses VENDOR_API_KEY. Check that variable first
// if your program supports both.
func FederationConfigFromEnv() (FederationConfig, error) {
	cfg := FederationConfig{
		FederationRuleID: os.Getenv(EnvFederationRuleID),
		OrganizationID:   os.Getenv(EnvOrganizationID),
		ServiceAccountID: os.Getenv(EnvServiceAccountID),
		WorkspaceID:      os.Getenv(EnvWorkspaceID),
	}
	for _, v := range [...]struct{ name, value string }{
		{EnvFederationRuleID, cfg.FederationRuleID},
		{EnvOrganizationID, cfg.OrganizationID},
		{EnvServiceAccountID, cfg.ServiceAccountID},
	} {
		if v.value == "" {
			return FederationConfig{}, fmt.Errorf("auth: workload identity federation: %s is not set", v.name)
		}
	}
	switch {
	case os.Getenv(EnvIdentityTokenFile) != "":
		cfg.IdentityToken = IdentityTokenFile(os.Getenv(EnvIdentityTokenFile))
	case os.Getenv(EnvIdentityToken) != "":
		cfg.IdentityToken = IdentityTokenEnv(EnvIdentityToken)
	default:
		return FederationConfig{}, fmt.Errorf("auth: workload identity federation: set %s or %s", EnvIdentityTokenFile, EnvIdentityToken)
	}
	return cfg, nil
}

// FederationFromEnv is Federation(FederationConfigFromEnv()).
func FederationFromEnv() (*FederationCredentials, error) {
	cfg, err := FederationConfigFromEnv()
	if err != nil {
		return nil, err
	}
	return Federation(cfg)
}
