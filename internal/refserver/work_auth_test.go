package refserver_test

import (
	"net/http"
	"testing"
)

// Environment keys (docs/environment-work-wire.md "Environment keys"):
// what they reach, what API keys may not do on the queue, and revocation.

const (
	msgEnvKeyOnly = "Environment keys authorize only the work queue and the sessions of their environment."
)

func TestWorkEnvironmentKeyAccess(t *testing.T) {
	f := newWorkFixture(t)
	sid := f.newSession(t)
	id := f.items(t)[0]["id"].(string)

	// An API key on the worker-only routes.
	want403 := "This endpoint accepts only the environment key of environment `" + f.shID + "`."
	for _, r := range []response{
		f.ma(t, "GET", f.workPath("/poll"), ""),
		f.ma(t, "POST", f.workPath("/"+id+"/ack"), ""),
		f.ma(t, "POST", f.workPath("/"+id+"/heartbeat?expected_last_heartbeat=NO_HEARTBEAT"), ""),
		f.ma(t, "GET", f.workPath(""), ""),
	} {
		wantError(t, r, http.StatusForbidden, "permission_error", want403)
	}

	// The environment key outside the queue and its sessions.
	for _, r := range []response{
		f.asWorker(t, "GET", "/v1/agents", ""),
		f.asWorker(t, "GET", "/v1/environments/"+f.shID, ""),
		f.asWorker(t, "POST", sessionsPath, `{}`),
		f.asWorker(t, "POST", sessionsPath+"/"+sid+"/archive", ""),
		f.asWorker(t, "GET", f.workPath("/"+id), ""),
		f.asWorker(t, "POST", f.workPath("/"+id), `{}`),
		f.asWorker(t, "GET", "/v1/models", "", noWorkspace),
	} {
		wantError(t, r, http.StatusForbidden, "permission_error", msgEnvKeyOnly)
	}

	// Its own sessions: read, list and send events.
	wantOK(t, f.asWorker(t, "GET", sessionsPath+"/"+sid, "", noWorkspace))
	wantOK(t, f.asWorker(t, "GET", eventsPath(sid), ""))
	wantOK(t, f.asWorker(t, "POST", eventsPath(sid), `{"events":[`+msgEvent("hi")+`]}`))
	// Stop and stats take either credential.
	wantOK(t, f.ma(t, "GET", f.workPath("/stats"), ""))

	// Another environment's key: that environment's queue, sessions and
	// items look unknown.
	other := f.createEnvironment(t, `{"name":"sh2","config":{"type":"self_hosted"}}`)["id"].(string)
	otherKey, err := f.srv.EnvironmentKey(other)
	must(t, err)
	wantError(t, f.ma(t, "GET", f.workPath("/poll"), "", withKey(otherKey)), http.StatusNotFound, "not_found_error",
		"Environment `"+f.shID+"` not found.")
	wantError(t, f.ma(t, "GET", sessionsPath+"/"+sid, "", withKey(otherKey)), http.StatusNotFound, "not_found_error",
		"Session `"+sid+"` not found.")
	wantError(t, f.ma(t, "POST", "/v1/environments/"+other+"/work/"+id+"/ack", "", withKey(otherKey)), http.StatusNotFound,
		"not_found_error", "Work item `"+id+"` not found.")
	wantError(t, f.ma(t, "GET", sessionsPath+"/"+sid+"/events", "", withKey(otherKey)), http.StatusNotFound, "not_found_error",
		"Session `"+sid+"` not found.")

	// Minting: only existing self-hosted environments.
	if _, err := f.srv.EnvironmentKey(f.envID); err == nil {
		t.Fatal("EnvironmentKey of a cloud environment: no error")
	}
	if _, err := f.srv.EnvironmentKey("env_nope"); err == nil {
		t.Fatal("EnvironmentKey of an unknown environment: no error")
	}
	// Sent as x-api-key it is refused.
	wantUnauthenticated(t, f.ma(t, "GET", f.workPath("/stats"), "", withAPIKeyHeader(f.key)),
		"environment keys must be sent as `Authorization: Bearer <key>`")
}

func TestWorkEnvironmentKeyRevoked(t *testing.T) {
	f := newWorkFixture(t)
	second, err := f.srv.EnvironmentKey(f.shID)
	must(t, err)
	if second == f.key {
		t.Fatal("EnvironmentKey returned the same key twice")
	}
	wantOK(t, f.ma(t, "GET", f.workPath("/stats"), "", withKey(second)))
	wantOK(t, f.ma(t, "POST", "/v1/environments/"+f.shID+"/archive", ""))
	const revoked = "environment key has been revoked: its environment is archived or deleted"
	for _, k := range []string{f.key, second} {
		wantUnauthenticated(t, f.ma(t, "GET", f.workPath("/stats"), "", withKey(k)), revoked)
	}
	if _, err := f.srv.EnvironmentKey(f.shID); err == nil {
		t.Fatal("EnvironmentKey of an archived environment: no error")
	}

	g := newWorkFixture(t)
	wantOK(t, g.ma(t, "DELETE", "/v1/environments/"+g.shID, ""))
	wantUnauthenticated(t, g.ma(t, "GET", g.workPath("/stats"), "", withKey(g.key)), revoked)
	// Forgotten once its environment is gone.
	wantUnauthenticated(t, g.ma(t, "GET", g.workPath("/stats"), "", withKey(g.key)), "invalid API key")
}
