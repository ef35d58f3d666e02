package selfhosted_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/selfhosted"
)

// The fleet test runs worker processes (this test binary, re-run as
// TestFleetWorkerProcess) against one reference server in the test's
// process, kills two of them with SIGKILL while they serve sessions, and
// checks that every session finishes with each tool call answered once.
// CI runs a short version; the full one, with the throughput of 1, 2, 4
// and 8 workers, is:
//
//	go test -race -run TestFleet ./selfhosted -fleet.full -v
var fleetFull = flag.Bool("fleet.full", false, "run the full fleet test: 200 sessions, and throughput with 1, 2, 4 and 8 workers")

// Variables the parent passes to a worker process.
const (
	envFleetWorker = "SELFHOSTED_FLEET_WORKER"
	envFleetURL    = "SELFHOSTED_FLEET_URL"
	envFleetEnvID  = "SELFHOSTED_FLEET_ENVIRONMENT_ID"
	envFleetKey    = "SELFHOSTED_FLEET_ENVIRONMENT_KEY"
	envFleetDir    = "SELFHOSTED_FLEET_DIR"
)

// fleetWorkerLife bounds a worker process: it stops by itself even if its
// parent never tells it to.
const fleetWorkerLife = 5 * time.Minute

// TestFleetWorkerProcess is a worker process of the fleet test; run alone
// it does nothing. It serves until SIGTERM, its stdin closes (the parent
// is gone) or fleetWorkerLife passes, and logs JSON lines to stdout, which
// the parent reads.
func TestFleetWorkerProcess(t *testing.T) {
	if os.Getenv(envFleetWorker) != "1" {
		t.Skip("a worker process of TestFleet")
	}
	ctx, cancel := context.WithTimeout(context.Background(), fleetWorkerLife)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	go func() { // the parent closes stdin, or dies
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	log := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelInfo}))
	client, err := agentplatform.NewClient(option.WithBaseURL(os.Getenv(envFleetURL)), option.WithInsecureHTTP())
	require.NoError(t, err)
	defer client.Close()
	w, err := selfhosted.New(client, os.Getenv(envFleetEnvID), os.Getenv(envFleetKey),
		// One directory for the fleet, as a volume shared by the machines
		// of a real one: a session taken over finds the files it wrote.
		selfhosted.WithDir(os.Getenv(envFleetDir)),
		selfhosted.WithLogger(log), selfhosted.WithLeaseTTL(2*time.Second),
		selfhosted.WithIdleTimeout(50*time.Millisecond), selfhosted.WithMaxSessions(8),
		selfhosted.WithPollBlock(200*time.Millisecond))
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- w.Run(context.WithoutCancel(ctx)) }()
	<-ctx.Done()
	closeCtx, closeCancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer closeCancel()
	require.NoError(t, w.Close(closeCtx))
	require.NoError(t, <-done)
}

// fleetProc is one worker process and what it logged.
type fleetProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	held  map[string]bool // sessions served and not yet released
	first chan struct{}   // closed at its first claim
	eof   chan struct{}   // closed when its output ends (it exited)
	once  sync.Once
}

// startWorkers starts n worker processes and follows their logs; claims
// receives (session id, time) for every session a worker starts serving.
func startWorkers(t *testing.T, n int, url, envID, key string, claims chan<- claim) []*fleetProc {
	t.Helper()
	dir := t.TempDir()
	procs := make([]*fleetProc, n)
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFleetWorkerProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), envFleetWorker+"=1", envFleetURL+"="+url, envFleetEnvID+"="+envID, envFleetKey+"="+key, envFleetDir+"="+dir)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		p := &fleetProc{cmd: cmd, stdin: stdin, held: map[string]bool{}, first: make(chan struct{}), eof: make(chan struct{})}
		procs[i] = p
		go p.follow(stdout, claims)
	}
	t.Cleanup(func() {
		for _, p := range procs {
			_ = p.stdin.Close()
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			_ = p.cmd.Wait()
		}
	})
	return procs
}

type claim struct {
	session string
	at      time.Time
	by      *fleetProc
}

func (p *fleetProc) follow(r io.Reader, claims chan<- claim) {
	defer close(p.eof)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg     string `json:"msg"`
			Session string `json:"session_id"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Session == "" {
			continue
		}
		switch line.Msg {
		case "selfhosted: serving session":
			p.mu.Lock()
			p.held[line.Session] = true
			p.mu.Unlock()
			p.once.Do(func() { close(p.first) })
			select {
			case claims <- claim{line.Session, time.Now(), p}:
			default:
			}
		case "selfhosted: session released", "selfhosted: lease lost; the session is left to the worker that holds it now":
			p.mu.Lock()
			delete(p.held, line.Session)
			p.mu.Unlock()
		}
	}
}

// heldSessions is what p served and had not released.
func (p *fleetProc) heldSessions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ids []string
	for id := range p.held {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func TestFleet(t *testing.T) {
	if os.Getenv(envFleetWorker) == "1" {
		t.Skip("the worker process")
	}
	sessions := 40
	if *fleetFull {
		sessions = 200
	}
	res := runFleet(t, fleetRun{workers: 8, sessions: sessions, kill: 2})
	t.Logf("8 workers, %d sessions, 2 killed: %d tool calls in %s (%.1f calls/s); reclaim of a killed worker's sessions: %s",
		sessions, res.calls, res.elapsed.Round(time.Millisecond), res.rate(), res.reclaim)
}

func TestFleetThroughput(t *testing.T) {
	if !*fleetFull {
		t.Skip("run with -fleet.full")
	}
	var rows []string
	for _, n := range []int{1, 2, 4, 8} {
		res := runFleet(t, fleetRun{workers: n, sessions: 200})
		rows = append(rows, fmt.Sprintf("%d workers: %d tool calls in %s, %.1f calls/s",
			n, res.calls, res.elapsed.Round(time.Millisecond), res.rate()))
	}
	t.Log("throughput:\n" + strings.Join(rows, "\n"))
}
