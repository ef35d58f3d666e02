// Package pipeline is the SDK's one request pipeline.
//
// A resource service describes a call as a Request (method, escaped path,
// query, JSON body, the endpoint's beta value, its route template) and hands
// it to Do. The pipeline then, once for every endpoint:
//
//  1. copies the client's Config and applies the call's options;
//  2. builds the URL, the JSON body and the headers (User-Agent, version,
//     beta values, workspace, Idempotency-Key on POST, caller headers);
//  3. runs the attempts through go-retryablehttp: credentials are applied to
//     every attempt, each attempt has its own timeout and passes through the
//     caller's middleware; 408, 409, 429, 5xx and connection errors are retried
//     (x-should-retry overrides), waiting as the server asks (retry-after-ms,
//     retry-after), capped, else with exponential backoff and jitter;
//  4. decodes a 2xx body into the typed result, or any other status into an
//     *apierror.Error that keeps the body.
//
// Resource packages never build headers, retry or log themselves.
package pipeline
