// Package auth provides the credentials the SDK sends with each request.
//
// The request pipeline asks its Credentials to authorize every attempt of a
// request, retries included, so a source whose token expires can hand out a
// fresh one. Three sources exist on the platform (SPEC section 5): API keys
// (this package's APIKey and XAPIKey), workload identity federation and device
// attestation. Applications can also implement Credentials themselves.
//
//	client, err := agentplatform.NewClient(
//		option.WithCredentials(auth.APIKey(os.Getenv("VENDOR_API_KEY"))),
//	)
//
// Credentials print as "[redacted]" with every fmt verb and in slog, so a
// logged configuration never shows a secret.
package auth
