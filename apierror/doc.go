// Package apierror holds the SDK's error types.
//
// Every failed call returns an error that is one of:
//
//   - *Error: the API answered with a status of 400 or more. It carries the HTTP
//     status, the error type of the body (error.type), the message, the
//     request id, the raw body, and error.details with its error_code (a
//     stable name for the cause, to branch on rather than the message) when
//     the body has them.
//   - *ValidationError: the SDK refused the call before sending anything, because
//     a parameter broke a rule it can check locally. It names the field and the rule.
//   - *ResponseError: the API answered 2xx but the SDK could not use the body: it
//     does not decode (ErrMalformedResponse) or is larger than the client accepts
//     (ErrResponseTooLarge).
//   - *RedirectError: the SDK refused to follow a redirect, to plain HTTP
//     (ErrInsecureHTTP) or one that would re-send the body to another origin
//     (ErrRedirectBody).
//   - ErrNoCredentials or ErrInsecureHTTP themselves: the client is not set up
//     to send the call; the message says how to fix it.
//   - the credentials' own error, wrapped, when they could not authorize the
//     call (an *auth.ExchangeError, say).
//   - a transport or context error, wrapped with %w, so errors.Is(err,
//     context.DeadlineExceeded) works.
//
// Use errors.As to inspect an API error, and errors.Is with the sentinels for
// the common cases:
//
//	ws, err := client.Workspaces.Get(ctx, id)
//	var apiErr *apierror.Error
//	switch {
//	case errors.Is(err, apierror.ErrNotFound):
//		// no such workspace
//	case errors.As(err, &apiErr):
//		log.Printf("status %d, type %s, request %s", apiErr.StatusCode, apiErr.Type, apiErr.RequestID)
//	}
//
// Error strings never contain credentials.
package apierror
