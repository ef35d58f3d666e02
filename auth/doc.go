// Package auth provides the credentials the SDK sends with each request.
//
// The request pipeline asks its Credentials to authorize every attempt of a
// request, retries included, so that a source whose token expires can hand
// out a fresh one. The platform has three sources (docs/auth-wire.md):
//
//   - API keys. APIKey sends "Authorization: Bearer <key>", XAPIKey the
//     legacy x-api-key header. option.WithAPIKey is APIKey, and a client
//     given no credentials uses VENDOR_API_KEY.
//   - Workload identity federation, for workloads that have an identity
//     token (a JWT) from their platform: Kubernetes, cloud agents, CI.
//     Federation, or FederationFromEnv (VENDOR_FEDERATION_RULE_ID, ...),
//     exchanges it at POST /v1/oauth/token for short-lived access tokens of
//     a service account, with the same access as an API key. The token is
//     read again for every exchange, since platforms rotate it.
//   - Device attestation, for iOS and macOS apps calling the API with no
//     secret built in. DeviceAttestation proves through an Attestor (Apple's
//     App Attest in the app, authtest.Attestor in tests) that the installation is
//     an unmodified build of a registered app, and gets one-hour tokens that
//     authorize only the Messages API: any other call is refused locally
//     with a *ScopeError before anything is sent.
//
// Applications can also implement Credentials themselves. API keys are
// administered (listed, disabled, re-enabled, deleted) with the client's
// APIKeys service, package apikeys.
//
//	fed, err := auth.FederationFromEnv()
//	if err != nil {
//		return err
//	}
//	defer fed.Close()
//	client, err := agentplatform.NewClient(option.WithCredentials(fed))
//
// # Token cache
//
// Federation and device attestation share one cache. The expiry of a token
// is the time its exchange was sent plus expires_in. From expiry − min(120 s,
// lifetime/2) (advisory) the first request to notice starts one exchange in
// the background and keeps using the cached token; if the exchange fails the
// token stays in use. From expiry − min(30 s, lifetime/4) (mandatory)
// requests wait for an exchange and fail if it fails. Only one exchange runs
// at a time: every request that needs a token waits for the same one. When
// the API answers 401, the client calls Invalidate, which drops the token
// that request carried (not a newer one), and repeats the request once with
// a fresh token.
//
// There is no long-lived goroutine: a refresh is started by a request, runs
// on a goroutine that lives for that one exchange, and Close cancels it and
// waits for it. Close the source when the client is done with it.
//
// Exchanges use their own small HTTP client, retry connection errors, 429
// and 5xx with bounded backoff (never 400 or 401), and fail with an
// *ExchangeError. A token endpoint that is neither https nor loopback is
// refused (ErrInsecureEndpoint): it would receive the identity token or the
// device proof in the clear. For the same reason a redirect is followed
// only within the token endpoint's origin; any other fails the exchange.
//
// # Tracing
//
// Each exchange request gets an OpenTelemetry CLIENT span, as every API
// request does: vendor.oauth.token.create and, for device attestation,
// vendor.oauth.device_attestation.challenge.create, with the same
// attributes as the client's spans and one span covering a request and its
// retries. It is a child of the span of the request that needed the token,
// even when the exchange runs in the background, and the exchange request
// carries its traceparent. The spans go to the config's TracerProvider,
// else to the provider of that request's span (the client's), else to the
// global provider. No span attribute holds a token or a proof.
//
// # Secrets
//
// Credentials print as redacted with every fmt verb and in slog. Errors and
// log lines never contain an API key, identity token, device proof or access
// token; a message the token endpoint sends back has them replaced.
package auth
