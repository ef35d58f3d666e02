package conformance_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestNotFound: every family answers an unknown id with a typed 404.
func TestNotFound(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client
	cases := []struct {
		name string
		call func() error
	}{
		{"model", func() error { _, err := c.Models.Get(ctx, "conformance-no-such-model"); return err }},
		{"agent", func() error {
			_, err := c.Agents.Get(ctx, "agent_011CConformanceNoSuchAgent", agents.GetParams{})
			return err
		}},
		{"environment", func() error { _, err := c.Environments.Get(ctx, "env_011CConformanceNoSuchEnv"); return err }},
		{"session", func() error { _, err := c.Sessions.Get(ctx, "sesn_011CConformanceNoSuchSession"); return err }},
		{"deployment", func() error { _, err := c.Deployments.Get(ctx, "depl_011CConformanceNoSuchDepl"); return err }},
		{"memory store", func() error {
			_, err := c.MemoryStores.Get(ctx, "memstore_011CConformanceNoSuchStore")
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if !errors.Is(err, apierror.ErrNotFound) {
				t.Fatalf("want ErrNotFound, got %v", err)
			}
			e := wantStatus(t, err, http.StatusNotFound)
			if e.Type != apierror.TypeNotFound || e.Message == "" || e.RequestID == "" {
				t.Errorf("type %q, message %q, request id %q", e.Type, e.Message, e.RequestID)
			}
		})
	}
}

// TestServerValidation: a body the server refuses is a typed 400 whose
// message names the offending field. An unknown field is used because the
// SDK cannot check it locally: Extra sends it as given.
func TestServerValidation(t *testing.T) {
	tg := target(t)
	params := messageParams(tg.Model(t), "Hello.")
	params.Extra = map[string]json.RawMessage{"conformance_unknown_field": json.RawMessage(`true`)}
	_, err := tg.Client.Messages.Create(tg.ctx(t), params)
	if !errors.Is(err, apierror.ErrInvalidRequest) {
		t.Fatalf("want ErrInvalidRequest, got %v", err)
	}
	e := wantStatus(t, err, http.StatusBadRequest)
	if e.Type != apierror.TypeInvalidRequest || !strings.Contains(e.Message, "conformance_unknown_field") {
		t.Errorf("type %q, message %q: want invalid_request_error naming conformance_unknown_field", e.Type, e.Message)
	}
}

// TestLocalValidation: a parameter the SDK can check is refused before
// anything is sent, naming the field; errors.Is still matches
// ErrInvalidRequest.
func TestLocalValidation(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	var sent counter
	cases := []struct {
		field string
		call  func() error
	}{
		{"name", func() error {
			_, err := tg.Client.Agents.Create(ctx, agents.CreateParams{Model: agents.ModelID(tg.Model(t))}, sent.option())
			return err
		}},
		{"limit", func() error {
			_, err := tg.Client.Models.List(ctx, models.ListParams{Limit: 5000}, sent.option())
			return err
		}},
		{"initial_events[0].content", func() error {
			_, err := tg.Client.Sessions.Create(ctx, sessions.CreateParams{
				Agent: agents.AgentID("agent_011CConformance"), EnvironmentID: "env_011CConformance",
				InitialEvents: []sessions.EventParam{sessions.UserMessageParam{}},
			}, sent.option())
			return err
		}},
		{"max_tokens", func() error {
			p := messageParams(tg.Model(t), "Hello.")
			p.MaxTokens = -1
			_, err := tg.Client.Messages.Create(ctx, p, sent.option())
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.field, func(t *testing.T) {
			err := tc.call()
			var v *apierror.ValidationError
			if !errors.As(err, &v) {
				t.Fatalf("want an *apierror.ValidationError, got %T: %v", err, err)
			}
			if !strings.HasPrefix(v.Field, tc.field) || v.Rule == "" {
				t.Errorf("field %q (rule %q), want %q", v.Field, v.Rule, tc.field)
			}
			if !errors.Is(err, apierror.ErrInvalidRequest) {
				t.Errorf("errors.Is(err, ErrInvalidRequest) is false for %v", err)
			}
		})
	}
	if n := sent.count(); n != 0 {
		t.Errorf("%d requests were sent for refused parameters", n)
	}
}

// TestInvalidAPIKey: a key the server does not know is a typed 401, and the
// error does not echo it.
func TestInvalidAPIKey(t *testing.T) {
	tg := target(t)
	const bad = "sk-vendor-api03-conformanceXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
	c := tg.NewClient(t, option.WithAPIKey(bad), option.WithMaxRetries(0))
	_, err := c.Models.List(tg.ctx(t), models.ListParams{})
	if !errors.Is(err, apierror.ErrAuthentication) {
		t.Fatalf("want ErrAuthentication, got %v", err)
	}
	wantStatus(t, err, http.StatusUnauthorized)
	if strings.Contains(err.Error(), bad) {
		t.Errorf("the error shows the key: %v", err)
	}
}

// TestIdempotencyKey: two creates under one Idempotency-Key make one
// resource, and the same key with another body is refused. The SDK relies
// on this to retry a POST whose response was lost.
func TestIdempotencyKey(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	key := option.WithHeader("Idempotency-Key", name(t))
	params := memorystores.CreateParams{Name: name(t), Metadata: metadata()}

	var res1, res2 *http.Response
	a, err := tg.Client.MemoryStores.Create(ctx, params, key, option.WithResponseInto(&res1))
	if err != nil {
		t.Fatalf("first create: %v", err)
	}
	removeMemoryStore(t, tg, a.ID)
	b, err := tg.Client.MemoryStores.Create(ctx, params, key, option.WithResponseInto(&res2))
	if err != nil {
		t.Fatalf("second create: %v", err)
	}
	if b.ID != a.ID {
		removeMemoryStore(t, tg, b.ID)
		t.Fatalf("one Idempotency-Key made two stores, %s and %s", a.ID, b.ID)
	}
	if tg.Reference() && res2.Header.Get("idempotent-replayed") != "true" {
		t.Errorf("the replay lacks idempotent-replayed: true (headers %v)", res2.Header)
	}

	other := params
	other.Name = name(t)
	c, err := tg.Client.MemoryStores.Create(ctx, other, key)
	if err == nil {
		removeMemoryStore(t, tg, c.ID)
		t.Fatalf("the same Idempotency-Key with another body created %s", c.ID)
	}
	if !errors.Is(err, apierror.ErrInvalidRequest) {
		t.Errorf("the same key with another body: want a 400, got %v", err)
	}
}

// TestRequestIDAndWorkspaceHeaders: every response carries a request id,
// and a request that runs in a workspace says which.
func TestRequestIDAndWorkspaceHeaders(t *testing.T) {
	tg := target(t)
	var res *http.Response
	if _, err := tg.Client.Environments.List(tg.ctx(t), environments.ListParams{Limit: 1}, option.WithResponseInto(&res)); err != nil {
		t.Fatalf("list environments: %v", err)
	}
	if res.Header.Get("request-id") == "" {
		t.Errorf("no request-id header")
	}
	// Workspace selection rule 7 (docs/api-choices.md) asks for
	// vendor-workspace-id on requests that run in the default workspace;
	// the reference server sends it for every workspace.
	ws := res.Header.Get("vendor-workspace-id")
	switch {
	case ws == "" && tg.Reference():
		t.Errorf("no vendor-workspace-id header")
	case ws != "" && tg.WorkspaceID != "" && ws != tg.WorkspaceID:
		t.Errorf("vendor-workspace-id %q, the request selected %q", ws, tg.WorkspaceID)
	}
}
