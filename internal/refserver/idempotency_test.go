package refserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func idempotencyKey(k string) mod { return withHeader("Idempotency-Key", k) }

func TestIdempotentReplay(t *testing.T) {
	e := newEnv(t)
	first := e.do(t, "POST", "/v1/tunnels", `{"display_name":"a"}`, tunnelsBeta, idempotencyKey("k1"))
	wantOK(t, first)
	if first.header.Get("idempotent-replayed") != "" {
		t.Fatal("first response marked as replayed")
	}
	e.clock.Advance(time.Hour)
	replay := e.do(t, "POST", "/v1/tunnels", `{"display_name":"a"}`, tunnelsBeta, idempotencyKey("k1"))
	wantOK(t, replay)
	if replay.header.Get("idempotent-replayed") != "true" || string(replay.body) != string(first.body) {
		t.Fatalf("replay: %v %s", replay.header, replay.body)
	}
	if replay.header.Get("request-id") == first.header.Get("request-id") {
		t.Fatal("the replay reused the first request id")
	}
	if n := len(listTunnelIDs(t, e, "")); n != 1 {
		t.Fatalf("%d tunnels after a replay, want 1", n)
	}

	// Same key, different request.
	wantInvalid(t, e.do(t, "POST", "/v1/tunnels", `{"display_name":"b"}`, tunnelsBeta, idempotencyKey("k1")),
		"Idempotency-Key: was already used for a different request")
	wantInvalid(t, e.do(t, "POST", "/v1/organizations/workspaces", `{"display_name":"a"}`, idempotencyKey("k1")),
		"Idempotency-Key: was already used for a different request")

	// The workspace is part of the request.
	elsewhere := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, elsewhere))
	wantInvalid(t, e.do(t, "POST", "/v1/tunnels", `{"display_name":"a"}`, tunnelsBeta, idempotencyKey("k1"), withWorkspace(elsewhere)),
		"Idempotency-Key: was already used for a different request")

	// Keys are per API key: another key's k1 is a new request.
	other := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID})
	r := e.do(t, "POST", "/v1/tunnels", `{"display_name":"a"}`, tunnelsBeta, idempotencyKey("k1"), withKey(other.Secret))
	wantOK(t, r)
	if r.header.Get("idempotent-replayed") != "" {
		t.Fatal("another API key's request was replayed")
	}

	// After 24 hours the key is forgotten.
	e.clock.Advance(23 * time.Hour)
	r = e.do(t, "POST", "/v1/tunnels", `{"display_name":"a"}`, tunnelsBeta, idempotencyKey("k1"))
	if r.header.Get("idempotent-replayed") != "" {
		t.Fatal("replayed after 24 hours")
	}
	if n := len(listTunnelIDs(t, e, "")); n != 3 {
		t.Fatalf("%d tunnels, want 3", n)
	}
}

func TestIdempotencyRemembersClientErrors(t *testing.T) {
	e := newEnv(t)
	first := e.do(t, "POST", "/v1/tunnels", `{"display_name":""}`, tunnelsBeta, idempotencyKey("bad"))
	wantInvalid(t, first, "display_name: must be between 1 and 255 characters")
	replay := e.do(t, "POST", "/v1/tunnels", `{"display_name":""}`, tunnelsBeta, idempotencyKey("bad"))
	if replay.status != 400 || replay.header.Get("idempotent-replayed") != "true" || string(replay.body) != string(first.body) {
		t.Fatalf("replay %d %v %s", replay.status, replay.header, replay.body)
	}
}

func TestIdempotencyKeyLength(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		key string
		ok  bool
	}{
		{"", false},
		{"a", true},
		{strings.Repeat("k", 255), true},
		{strings.Repeat("k", 256), false},
	}
	for _, tc := range cases {
		r := e.do(t, "POST", "/v1/tunnels", "", tunnelsBeta, idempotencyKey(tc.key))
		if tc.ok {
			wantOK(t, r)
			continue
		}
		wantInvalid(t, r, "Idempotency-Key: must be between 1 and 255 characters")
	}
	// GET requests ignore the header.
	wantOK(t, e.do(t, "GET", "/v1/tunnels", "", tunnelsBeta, idempotencyKey("")))
}
