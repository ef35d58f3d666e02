package apierror

// Type is the error.type string of an API error body.
// Unknown values from newer servers are kept as they are.
type Type string

// Error types of the API, one per status (docs/api-choices.md, "Errors").
// The API also names budget refusal reasons (see sessions.BudgetRefusal)
// and deployment run error types (see
// deployments.RunErrorType): those travel inside an invalid_request_error
// message and a deployment run, not as error types of their own.
const (
	TypeInvalidRequest  Type = "invalid_request_error" // 400
	TypeAuthentication  Type = "authentication_error"  // 401
	TypeBilling         Type = "billing_error"         // 402
	TypePermission      Type = "permission_error"      // 403
	TypeNotFound        Type = "not_found_error"       // 404
	TypeConflict        Type = "conflict_error"        // 409
	TypeRequestTooLarge Type = "request_too_large"     // 413
	TypeRateLimit       Type = "rate_limit_error"      // 429
	TypeAPI             Type = "api_error"             // 500: the API ended a request without an error response
	TypeTimeout         Type = "timeout_error"         // 504
	TypeOverloaded      Type = "overloaded_error"      // 529

	// 409s of the memory endpoints, each a kind of conflict: errors.Is
	// matches them with ErrConflict as well as with their own sentinel.
	TypeMemoryPreconditionFailed Type = "memory_precondition_failed_error" // 409
	TypeMemoryPathConflict       Type = "memory_path_conflict_error"       // 409
)
