// Package conformance holds the end-to-end tests of the Agent Platform API,
// run through the SDK's public API as an application uses it: the model
// catalogue, environments, agents and their versions, sessions with their
// resources and event streams, the tool runner, deployments and their runs,
// memory stores, tunnels, Messages, errors, pagination, idempotency and the
// admin API. The package has no code of its own; its tests are the point.
//
// The same tests run against any implementation of the API. Unlike the
// SDK's unit tests, which ignore the VENDOR_* variables, these read them to
// choose their target.
//
// # Against the embedded reference server (the default)
//
//	go test -race ./conformance/
//
// Each test starts its own reference server in the test process, over real
// HTTP. Nothing is mocked, and no account or network is needed. With the
// server under the test's control, the tests that script the agent's turns,
// inject faults, advance the clock or seed API keys run too, and answers
// whose content is known (the scripted agent's words, token counts) are
// compared exactly.
//
// # Against the standalone reference server
//
// The reference server also runs as a program, which makes it an external
// target like any other:
//
//	go run ./internal/cmd/refserver   # prints VENDOR_BASE_URL=…, VENDOR_API_KEY=…, VENDOR_WORKSPACE_ID=…
//	export VENDOR_BASE_URL=… VENDOR_API_KEY=… VENDOR_WORKSPACE_ID=…   # in another shell
//	go test -race -count=1 -v ./conformance/
//
// The script .ci/conformance does exactly this, then lists the tests that
// skipped and why.
//
// # Against any implementation, the real API included
//
// When VENDOR_BASE_URL and VENDOR_API_KEY are both set, every test runs
// against that server instead. Set VENDOR_WORKSPACE_ID as well when the
// key is not scoped to one workspace.
//
//	VENDOR_BASE_URL=https://api.vendor.com VENDOR_API_KEY=sk-vendor-api03-… VENDOR_WORKSPACE_ID=wrkspc_… \
//		go test -count=1 -v -timeout 30m ./conformance/
//
// Warning: against the real API the tests create real resources in the
// workspace (environments, agents, sessions, deployments, memory stores,
// tunnels, skills). They also run real model requests, which spend tokens and are
// billed. Every resource's name starts with "conformance-", and resources
// that take metadata are tagged created_by=agentplatform-go/conformance.
// Each resource is removed when its test ends. Environments, sessions,
// memory stores and skills are deleted; agents, deployments and tunnels are archived,
// since the API cannot delete them. A run that is killed may leave some
// behind; look for that prefix. Use a workspace set aside for testing, and
// -count=1 so that go test does not reuse a cached result. A test does not
// assume it has the workspace to itself, except that the pagination test
// expects its own three memory stores to be the newest.
//
// An external target gets the same tests, with three differences:
//
//   - Tests that need server-side control skip, naming what is missing,
//     for example "needs the reference server: it scripts the agent's turns".
//   - A real model's words differ from run to run, so these tests check
//     structure, not text: event order, ids and types, usage reported,
//     every recorded event streamed once and in order, and each custom
//     tool call answered exactly once.
//   - The admin tests (workspaces, API keys) skip on a 403 when the key is
//     not an admin key. The tunnel test skips when the research preview is
//     not offered (403 or 404).
//
// Every test runs once per API version the platform serves, 2023-06-01 and
// then 2026-10-21 (docs/api-versions.md), in every mode; the tests of what
// differs expect the rules of the version of their pass.
//
// Three optional variables tune a run; the first applies to the embedded
// server too:
//
//	VENDOR_CONFORMANCE_VERSION=<version>    run every test under this API version only (against
//	                                        the real API, this halves the tokens a run spends)
//	VENDOR_CONFORMANCE_MODEL=<id>           the model for agents and Messages (default: the
//	                                        catalogue's newest haiku model, else its newest model)
//	VENDOR_CONFORMANCE_WORKSPACE_WRITES=1   let a test create a workspace and archive it; the
//	                                        API cannot delete workspaces, so without this the
//	                                        test skips
//
// # Writing a conformance test
//
// Get the target with target(t), which returns a client and says what the
// target is. A test that needs the server's hooks calls needsControl(t, why)
// instead, which returns the embedded reference server or skips. Create
// resources with the fixtures, or register their removal with cleanup.
// Assert exact content only when Target.Reference reports the embedded
// server. Give every call a context with a timeout (Target.ctx), and never
// assert on how long anything takes.
package conformance
