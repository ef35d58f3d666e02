// Package pipeline is the SDK's one request pipeline.
//
// A resource service describes a call as a Request (method, escaped path,
// query, JSON body, the endpoint's beta value, its route template) and hands
// it to Do. The pipeline then, once for every endpoint:
//
//  1. copies the client's Config and applies the call's options;
//  2. builds the URL and the JSON body, with the caller's extra query
//     parameters and body fields (option.WithQuery, option.WithJSONSet)
//     applied on top, and the headers (User-Agent, version, beta values,
//     workspace, Idempotency-Key on POST, caller headers);
//  3. runs the attempts through go-retryablehttp (one client per set of HTTP
//     settings, shared by the calls, which it finds in the request context):
//     credentials are applied to every attempt, each attempt has its own
//     timeout, covering its whole body unless it is an event stream, and
//     passes through the caller's middleware; 408, 409, 429, 5xx, connection
//     errors and stalled or cut bodies are retried (x-should-retry
//     overrides), waiting as the server asks (retry-after-ms, retry-after),
//     capped, else with exponential backoff and jitter; redirects to another
//     origin lose every credential header and never carry the body, and
//     redirects to plain HTTP are refused as the base URL would be;
//  4. decodes a 2xx body, bounded in size, into the typed result (a body that
//     does not decode is an *apierror.ResponseError), or any other status into
//     an *apierror.Error that keeps the body.
//
// A raw call (agentplatform.Client.Execute: NewRawRequest, then Into or
// RawStream) takes the same path with a caller's method, path and body.
//
// Files take it too, without holding a file in memory: a Request whose Body
// is an *Upload streams its body on each attempt, and the Upload decides
// before a retry whether its source can be sent again (Rewind); Download
// returns a response's bytes unread, unbounded, its span ended when the
// body is closed.
// Resource packages never build headers, retry or log themselves.
package pipeline
