package apierror

// Type is the error.type string of an API error body (SPEC section 7).
// Unknown values from newer servers are kept as they are.
type Type string

// Error types named by SPEC section 7, plus those the platform uses for the
// statuses SPEC does not show. SPEC 7 also names session update rejection
// reasons (see sessions.RejectionReason) and deployment run error types (see
// deployments.RunErrorType): those travel inside an invalid_request_error
// message and a deployment run, not as error types of their own.
const (
	TypeInvalidRequest  Type = "invalid_request_error" // 400
	TypeAuthentication  Type = "authentication_error"  // 401
	TypeBilling         Type = "billing_error"         // 402
	TypePermission      Type = "permission_error"      // 403
	TypeNotFound        Type = "not_found_error"       // 404
	TypeRequestTooLarge Type = "request_too_large"     // 413
	TypeRateLimit       Type = "rate_limit_error"      // 429
	TypeAPI             Type = "api_error"             // 500: the API ended a request without an error response
	TypeTimeout         Type = "timeout_error"         // 504
	TypeOverloaded      Type = "overloaded_error"      // 529
)

// typeForStatus is the error type a status implies when the body does not say,
// for example an HTML page from a proxy.
func typeForStatus(status int) Type {
	switch status {
	case 400:
		return TypeInvalidRequest
	case 401:
		return TypeAuthentication
	case 402:
		return TypeBilling
	case 403:
		return TypePermission
	case 404:
		return TypeNotFound
	case 413:
		return TypeRequestTooLarge
	case 429:
		return TypeRateLimit
	case 504:
		return TypeTimeout
	case 529:
		return TypeOverloaded
	}
	if status >= 500 {
		return TypeAPI
	}
	return ""
}
