package selfhosted_test

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

type fleetRun struct {
	workers, sessions, kill int
}

type fleetResult struct {
	calls   int
	elapsed time.Duration
	reclaim time.Duration // longest time from a kill to another worker serving a session the killed one held
}

func (r fleetResult) rate() float64 { return float64(r.calls) / r.elapsed.Seconds() }

// callsPerSession is how many sandbox tool calls fleetTurn makes.
const callsPerSession = 3

// fleetTurn is each session's scripted turn: three sandbox tool calls,
// then an answer.
func fleetTurn() []platformtest.Step {
	return []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "echo fleet-$((6*7))"}),
		platformtest.UseTool("write", map[string]any{"file_path": "notes/out.txt", "content": "written by the fleet"}),
		platformtest.UseTool("read", map[string]any{"file_path": "notes/out.txt"}),
		platformtest.Say("done"),
	}
}

func runFleet(t *testing.T, run fleetRun) fleetResult {
	t.Helper()
	const limit = 3 * time.Minute
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	env := newSelfHosted(t)
	require.NoError(t, env.srv.ScriptAgent(env.agentID, fleetTurn()))

	// Every session, with its stream open before its message is sent.
	ids := make([]string, run.sessions)
	streams := make([]*sessions.EventStream, run.sessions)
	for i := range ids {
		ids[i] = env.newSession(t)
		st, err := env.client.Sessions.Events.Stream(ctx, ids[i], sessions.StreamParams{})
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		streams[i] = st
	}
	claims := make(chan claim, 4*run.sessions)
	procs := startWorkers(t, run.workers, env.srv.URL(), env.envID, env.key, claims)
	start := time.Now()
	for _, id := range ids {
		env.send(t, id, "go")
	}

	var reclaim time.Duration
	var reclaimWG sync.WaitGroup
	if run.kill > 0 {
		reclaimWG.Add(1)
		go func() { // kill workers once they serve sessions, then time the take-over
			defer reclaimWG.Done()
			reclaim = killAndTime(ctx, t, env, procs[:run.kill], claims)
		}()
	}

	errs := make([]error, len(streams))
	var wg sync.WaitGroup
	for i, st := range streams {
		wg.Go(func() { errs[i] = waitEndTurn(st, ids[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			env.logHistory(t, ids[i])
		}
	}
	for _, err := range errs {
		require.NoError(t, err)
	}
	elapsed := time.Since(start)
	reclaimWG.Wait()
	for _, id := range ids {
		env.requireAnsweredOnce(t, id, callsPerSession)
	}
	return fleetResult{calls: run.sessions * callsPerSession, elapsed: elapsed, reclaim: reclaim}
}

// killAndTime SIGKILLs each of procs once it serves a session, and
// returns the longest time until another worker served a session a
// killed worker held.
func killAndTime(ctx context.Context, t *testing.T, env *selfHosted, procs []*fleetProc, claims <-chan claim) time.Duration {
	lastBy := map[string]*fleetProc{} // who claimed each session last
	note := func(c claim) { lastBy[c.session] = c.by }
	drain := func() {
		for {
			select {
			case c := <-claims:
				note(c)
			default:
				return
			}
		}
	}
	orphans := map[string]time.Time{}
	for _, p := range procs {
		select {
		case <-p.first:
		case <-ctx.Done():
			return 0
		}
		killed := time.Now()
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
		select { // every line it wrote has been read: held is exact
		case <-p.eof:
		case <-ctx.Done():
			return 0
		}
		// What it held when it died: sessions it served last, did not
		// release, and whose item the server still counts as claimed.
		drain()
		claimed := env.claimedSessions(t)
		n := 0
		for _, id := range p.heldSessions() {
			if lastBy[id] == p && claimed[id] {
				orphans[id] = killed
				n++
			}
		}
		t.Logf("killed a worker holding %d sessions", n)
	}
	var longest time.Duration
	for len(orphans) > 0 {
		select {
		case c := <-claims:
			note(c)
			if killed, ok := orphans[c.session]; ok && c.at.After(killed) {
				longest = max(longest, c.at.Sub(killed))
				delete(orphans, c.session)
			}
		case <-ctx.Done():
			t.Errorf("sessions of killed workers never taken over: %v", orphans)
			return longest
		}
	}
	return longest
}

// waitEndTurn reads a session's stream until its turn ends.
func waitEndTurn(st *sessions.EventStream, id string) error {
	for ev, err := range st.Events() {
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		if idle, ok := ev.(*sessions.SessionStatusIdleEvent); ok {
			if _, ok := idle.StopReason.(sessions.StopEndTurn); ok {
				return nil
			}
		}
	}
	return fmt.Errorf("%s: the stream ended before the turn did", id)
}
