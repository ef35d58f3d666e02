package kit

import (
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/apiversion"
)

// Headers the pipeline reads.
const (
	HeaderVersion     = "vendor-version"
	HeaderBeta        = "vendor-beta"
	HeaderWorkspaceID = "vendor-workspace-id"
)

// CheckVersion returns the API version a request asks for in the
// vendor-version header: apiversion.Default when the header is left out,
// else the value, which must be one the platform serves
// (docs/api-versions.md). Several values must agree.
func CheckVersion(h http.Header) (string, error) {
	values := h.Values(HeaderVersion)
	if len(values) == 0 {
		return apiversion.Default, nil
	}
	for _, v := range values {
		if !apiversion.Served(v) {
			return "", InvalidField(HeaderVersion, "unsupported version `%s`; the served versions are %s", v, servedVersions())
		}
		if v != values[0] {
			return "", InvalidField(HeaderVersion, "sent more than once with different values (`%s`, `%s`); send one version", values[0], v)
		}
	}
	return values[0], nil
}

// servedVersions lists the served versions: `a` and `b`.
func servedVersions() string {
	q := make([]string, len(apiversion.Known))
	for i, v := range apiversion.Known {
		q[i] = "`" + v + "`"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// BetaMCPTunnels is the beta value the tunnel routes require (the managed
// agents' value is BetaManagedAgents).
const BetaMCPTunnels = "mcp-tunnels-2026-06-22"

// knownBetas is the list of beta values the API knows; anything else is a
// typo the client should hear about (docs/api-choices.md "Transport").
var knownBetas = map[string]bool{}

func init() {
	for _, v := range strings.Fields(`
		message-batches-2024-09-24 prompt-caching-2024-07-31 computer-use-2024-10-22
		computer-use-2025-01-24 pdfs-2024-09-25 token-counting-2024-11-01
		token-efficient-tools-2025-02-19 output-128k-2025-02-19 files-api-2025-04-14
		mcp-client-2025-04-04 mcp-client-2025-11-20 dev-full-thinking-2025-05-14
		interleaved-thinking-2025-05-14 code-execution-2025-05-22 extended-cache-ttl-2025-04-11
		context-1m-2025-08-07 context-management-2025-06-27 model-context-window-exceeded-2025-08-26
		skills-2025-10-02 fast-mode-2026-02-01 output-300k-2026-03-24 user-profiles-2026-03-24
		user-profiles-2026-08-18 user-profiles-2026-09-04 advisor-tool-2026-03-01
		managed-agents-2026-04-01 cache-diagnosis-2026-04-07 dreaming-2026-04-21
		thinking-token-count-2026-05-13 server-side-fallback-2026-06-01 server-side-fallback-2026-07-01
		fallback-credit-2026-06-01 fallback-credit-2026-07-01 agent-memory-2026-07-22
		mid-conversation-tool-changes-2026-07-01 compact-2026-01-12 computer-use-2025-11-24
		mcp-tunnels-2026-06-22 structured-outputs-2025-11-13 task-budgets-2026-03-13
		thinking-display-updates-2026-08-18 ce-user-management-2026-07-13
		mid-conversation-output-config-2026-07-01 thinking-binding-controls-2026-08-01
		mid-conversation-system-clear-at-2026-08-21 compact-2026-09-04 inline-tools-2026-09-15
		mcp-client-2026-09-15 ce-plugins-2026-09-01 spend-limit-reads-2026-09-26
		telemetry-destinations-2026-08-11`) {
		knownBetas[v] = true
	}
}

// maxBetaHeader bounds the vendor-beta values of one request, all headers
// together: every known value at once is under 2 KiB, so anything past
// 16 KiB is not a client's list but an attempt to make the server work.
const maxBetaHeader = 16 << 10

// maxNamedBetas is how many unknown values an error names; it says how
// many more there were.
const maxNamedBetas = 5

// ParseBetas collects vendor-beta values from comma-separated and repeated
// headers and rejects unknown ones, naming the first few. It runs in time
// linear in the header's length.
func ParseBetas(h http.Header) (map[string]bool, error) {
	values := h.Values(HeaderBeta)
	size := 0
	for _, header := range values {
		size += len(header)
	}
	if size > maxBetaHeader {
		return nil, InvalidField(HeaderBeta, "too long: %d bytes, at most %d", size, maxBetaHeader)
	}
	betas := make(map[string]bool)
	var unknown []string
	seenUnknown := make(map[string]bool)
	for _, header := range values {
		for v := range strings.SplitSeq(header, ",") {
			v = strings.TrimSpace(v)
			if v == "" || betas[v] || seenUnknown[v] {
				continue
			}
			if !knownBetas[v] {
				seenUnknown[v] = true
				unknown = append(unknown, v)
				continue
			}
			betas[v] = true
		}
	}
	switch n := len(unknown); {
	case n == 0:
		return betas, nil
	case n == 1:
		return nil, InvalidField(HeaderBeta, "unknown beta value %s", QuoteList(unknown))
	case n <= maxNamedBetas:
		return nil, InvalidField(HeaderBeta, "unknown beta values %s", QuoteList(unknown))
	default:
		return nil, InvalidField(HeaderBeta, "unknown beta values %s and %d more", QuoteList(unknown[:maxNamedBetas]), n-maxNamedBetas)
	}
}

// RequireBeta checks that at least one of the route's accepted values was
// sent; the message names the value(s) to send.
func RequireBeta(accepted []string, sent map[string]bool) error {
	if len(accepted) == 0 {
		return nil
	}
	for _, v := range accepted {
		if sent[v] {
			return nil
		}
	}
	if len(accepted) == 1 {
		return InvalidField(HeaderBeta, "this endpoint requires the beta value %s", QuoteList(accepted))
	}
	return InvalidField(HeaderBeta, "this endpoint requires one of the beta values %s", QuoteList(accepted))
}
