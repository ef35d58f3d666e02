package conformance_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/leaktest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// The environment variables that choose and tune the target (doc.go).
const (
	envBaseURL     = "VENDOR_BASE_URL"
	envAPIKey      = "VENDOR_API_KEY"
	envWorkspaceID = "VENDOR_WORKSPACE_ID"

	envModel           = "VENDOR_CONFORMANCE_MODEL"            // model for agents and Messages
	envVersion         = "VENDOR_CONFORMANCE_VERSION"          // the one API version to test; unset: every version
	envWorkspaceWrites = "VENDOR_CONFORMANCE_WORKSPACE_WRITES" // "1": create (and archive) a workspace
)

// TestMain names the target once, so that a run's log says what it tested,
// runs every test under each API version in turn (or only the one
// VENDOR_CONFORMANCE_VERSION names), and fails the package if a test leaves
// a goroutine behind (every client is closed and every stream ended by the
// tests' cleanups).
func TestMain(m *testing.M) {
	if base, _, _, ok := externalConfig(); ok {
		fmt.Printf("conformance: target is the server at %s (%s and %s are set)\n", base, envBaseURL, envAPIKey)
	} else {
		fmt.Println("conformance: target is the embedded reference server")
	}
	leaktest.VerifyTestMain(everyVersion{m})
}

// apiVersion is the API version the tests' clients send in this pass.
var apiVersion string

// everyVersion runs the tests once per API version, stopping at the first
// pass that fails.
type everyVersion struct{ m *testing.M }

func (ev everyVersion) Run() int {
	versions := []string{option.Version20230601, option.Version20261021}
	if v := os.Getenv(envVersion); v != "" {
		versions = []string{v}
	}
	for _, v := range versions {
		apiVersion = v
		fmt.Printf("conformance: API version %s\n", v)
		if code := ev.m.Run(); code != 0 {
			return code
		}
	}
	return 0
}

// Target is what a conformance test runs against: a client, and what is
// behind it.
type Target struct {
	// Client is configured for the target and closed when the test ends.
	Client *agentplatform.Client
	// Desc says what the target is, for messages.
	Desc string
	// Ref is the embedded reference server, with full control over it
	// (scripts, faults, clock, seeding); nil against an external server.
	Ref *reftest.Env
	// WorkspaceID is the workspace requests run in, "" when an external
	// target's key selects it by itself.
	WorkspaceID string

	baseURL, apiKey string
}

// Reference reports whether the target is the embedded reference server,
// whose answers (texts, token counts) are known exactly. Against any other
// implementation tests assert structure, not content.
func (tg *Target) Reference() bool { return tg.Ref != nil }

// externalConfig reads the external target from the environment: both
// VENDOR_BASE_URL and VENDOR_API_KEY must be set.
func externalConfig() (baseURL, apiKey, workspaceID string, ok bool) {
	baseURL, apiKey = os.Getenv(envBaseURL), os.Getenv(envAPIKey)
	return baseURL, apiKey, os.Getenv(envWorkspaceID), baseURL != "" && apiKey != ""
}

// target returns the target of a conformance test: the server at
// VENDOR_BASE_URL with VENDOR_API_KEY (and VENDOR_WORKSPACE_ID when set)
// when both are set, else a new embedded reference server for this test.
func target(t *testing.T) *Target {
	t.Helper()
	if base, key, ws, ok := externalConfig(); ok {
		tg := &Target{Desc: "the server at " + base, WorkspaceID: ws, baseURL: base, apiKey: key}
		tg.Client = tg.NewClient(t)
		return tg
	}
	return embedded(t)
}

// needsControl returns an embedded reference server for a test that needs
// server-side control (why says which: "scripts the agent's turns",
// "injects faults", "advances the clock", "seeds API keys"), or skips the
// test against an external target, saying what is missing.
func needsControl(t *testing.T, why string, opts ...refserver.Option) *Target {
	t.Helper()
	if base, _, _, ok := externalConfig(); ok {
		t.Skipf("needs the reference server: it %s (the target is the server at %s)", why, base)
	}
	return embedded(t, opts...)
}

func embedded(t *testing.T, opts ...refserver.Option) *Target {
	t.Helper()
	env := reftest.New(t, opts...)
	tg := &Target{
		Desc:        "the embedded reference server",
		Ref:         env,
		WorkspaceID: env.Seed.DefaultWorkspaceID,
		baseURL:     env.URL,
		apiKey:      env.Seed.APIKey,
	}
	tg.Client = tg.NewClient(t)
	return tg
}

// NewClient returns another client for the target, with opts applied after
// the target's own (its key and workspace, and the pass's API version), so
// option.WithAPIKey replaces the key. It is closed when the test ends.
func (tg *Target) NewClient(t *testing.T, opts ...option.Option) *agentplatform.Client {
	t.Helper()
	base := []option.Option{option.WithBaseURL(tg.baseURL), option.WithAPIKey(tg.apiKey), option.WithVersion(apiVersion)}
	if tg.WorkspaceID != "" {
		base = append(base, option.WithWorkspaceID(tg.WorkspaceID))
	}
	if tg.Reference() {
		base = append(base, option.WithMaxRetryWait(reftest.FastRetryWait))
	}
	c, err := agentplatform.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient for %s: %v", tg.Desc, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// externalModel is the model chosen for an external target, once per run.
var externalModel struct {
	once sync.Once
	id   string
	err  error
}

// Model returns the model agents and Messages calls use: VENDOR_CONFORMANCE_MODEL
// when set; on the reference server the haiku model; otherwise the
// catalogue's first haiku model, else its first model (the catalogue is
// newest first).
func (tg *Target) Model(t *testing.T) string {
	t.Helper()
	if id := os.Getenv(envModel); id != "" {
		return id
	}
	if tg.Reference() {
		return models.VendorHaiku55
	}
	externalModel.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for m, err := range tg.Client.Models.All(ctx, models.ListParams{Limit: 100}) {
			if err != nil {
				externalModel.err = err
				return
			}
			if externalModel.id == "" {
				externalModel.id = m.ID
			}
			if m.Line == models.LineHaiku {
				externalModel.id = m.ID
				return
			}
		}
		if externalModel.id == "" {
			externalModel.err = errors.New("the model catalogue is empty")
		}
	})
	if externalModel.err != nil {
		t.Fatalf("choosing a model (set %s to skip this): %v", envModel, externalModel.err)
	}
	return externalModel.id
}

// ctx returns a context for the test's calls. It is generous against an
// external target, where a session turn runs a real model; no test asserts
// how long anything takes.
func (tg *Target) ctx(t *testing.T) context.Context {
	d := time.Minute
	if !tg.Reference() {
		d = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// cleanup registers f to run when the test ends, with its own context (the
// test's is cancelled by then). A 404 means the resource is already gone; any
// other failure is reported, since it leaves the resource behind.
func cleanup(t *testing.T, what string, f func(ctx context.Context) error) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := f(ctx); err != nil && !errors.Is(err, apierror.ErrNotFound) {
			t.Errorf("cleanup: %s: %v (it may be left behind)", what, err)
		}
	})
}

// name returns a name for a resource the test creates: the "conformance-"
// prefix, the test's name and a random suffix, so that leftovers of an
// interrupted run against a real account are easy to find.
func name(t *testing.T) string {
	n := strings.NewReplacer("/", "-", " ", "_").Replace(t.Name())
	if len(n) > 100 {
		n = n[:100]
	}
	return "conformance-" + n + "-" + strings.ToLower(rand.Text()[:8])
}

// metadata tags every resource that takes metadata with where it came from.
func metadata() map[string]string {
	return map[string]string{"created_by": "agentplatform-go/conformance"}
}

// apiError returns err as an *apierror.Error, failing the test when it is
// not one.
func apiError(t *testing.T, err error) *apierror.Error {
	t.Helper()
	var e *apierror.Error
	if !errors.As(err, &e) {
		t.Fatalf("want an *apierror.Error, got %T: %v", err, err)
	}
	return e
}

// wantStatus fails the test unless err is an API error with status code.
func wantStatus(t *testing.T, err error, code int) *apierror.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want an API error with status %d, got success", code)
	}
	e := apiError(t, err)
	if e.StatusCode != code {
		t.Fatalf("want status %d, got %d: %v", code, e.StatusCode, err)
	}
	return e
}

// skipIfForbidden skips a test of the admin API (or a preview) when the
// key is not allowed to use it.
func skipIfForbidden(t *testing.T, tg *Target, err error, what string) {
	t.Helper()
	if errors.Is(err, apierror.ErrPermission) {
		t.Skipf("%s: the key is not allowed (403) on %s: %v", what, tg.Desc, err)
	}
}

// counter counts the HTTP attempts of the calls it is given to, as a
// per-call option.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) option() option.Option {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
		return next(req)
	})
}

func (c *counter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
