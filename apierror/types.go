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
	TypeRequestTooLarge Type = "request_too_large"     // 413
	TypeRateLimit       Type = "rate_limit_error"      // 429
	TypeAPI             Type = "api_error"             // 500: the API ended a request without an error response
	TypeTimeout         Type = "timeout_error"         // 504
	TypeOverloaded      Type = "overloaded_error"      // 529
)

// statusTypes pairs each status with the error type it stands for; both
// directions are needed, for bodies without a type (a proxy's page) and for
// errors without a status (an error event in a stream).
var statusTypes = []struct {
	status int
	typ    Type
}{
	{400, TypeInvalidRequest},
	{401, TypeAuthentication},
	{402, TypeBilling},
	{403, TypePermission},
	{404, TypeNotFound},
	{413, TypeRequestTooLarge},
	{429, TypeRateLimit},
	{504, TypeTimeout},
	{529, TypeOverloaded},
}

// typeForStatus is the error type a status implies when the body does not say.
func typeForStatus(status int) Type {
	for _, st := range statusTypes {
		if st.status == status {
			return st.typ
		}
	}
	if status >= 500 {
		return TypeAPI
	}
	return ""
}

// statusForType is the status an error type implies; unknown types map to 500.
func statusForType(t Type) int {
	for _, st := range statusTypes {
		if st.typ == t {
			return st.status
		}
	}
	return 500
}
