// Command benchreport runs the SDK's benchmarks and prints the README's
// benchmark table: each SDK variant beside the baseline it is paired with
// in the same run (raw net/http + encoding/json, a line scanner +
// encoding/json, a hand-written loop, or the call without tracing), as
// medians, with the time ratio and both allocation counts.
//
//	go run ./internal/cmd/benchreport            # every package, -count 5
//	go run ./internal/cmd/benchreport -count 10 -bench Stream ./sessions
//
// Ratios, not absolute times, are what compare across machines.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// defaultPackages hold the benchmarks that pair the SDK with a baseline.
var defaultPackages = []string{".", "./sessions", "./messages", "./toolrunner"}

// baselineOf maps a variant of a benchmark to the variants it is measured
// against, by an element of the benchmark's name; each baseline the run
// has gives a row. A stream's SDK decoder is compared with a bufio.Scanner
// line split plus encoding/json ("scanner") where the benchmark has one,
// and with go-sse's reader plus encoding/json ("baseline").
var baselineOf = map[string][]string{
	"impl=SDK":            {"impl=Raw"},
	"sdk":                 {"scanner", "baseline"},
	"runner":              {"handloop"},
	"tracing=noop":        {"tracing=none"},
	"tracing=sdk":         {"tracing=none"},
	"tracing=sdk+content": {"tracing=none"},
}

func main() {
	count := flag.Int("count", 5, "runs of each benchmark; the table shows medians")
	bench := flag.String("bench", ".", "which benchmarks (go test -bench)")
	benchtime := flag.String("benchtime", "", "go test -benchtime, e.g. 2s or 1000x")
	flag.Parse()
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = defaultPackages
	}
	args := []string{"test", "-run", "^$", "-bench", *bench, "-benchmem", "-count", strconv.Itoa(*count)}
	if *benchtime != "" {
		args = append(args, "-benchtime", *benchtime)
	}
	cmd := exec.Command("go", append(args, pkgs...)...)
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, os.Stderr) // progress on stderr, the table on stdout
	cmd.Stderr = os.Stderr
	fmt.Fprintln(os.Stderr, "benchreport: go", strings.Join(cmd.Args[1:], " "))
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	results := parse(&out)
	if len(results) == 0 {
		fmt.Fprintln(os.Stderr, "benchreport: no benchmark results")
		os.Exit(1)
	}
	printTable(os.Stdout, results)
}

// result is the runs of one benchmark: its values by unit.
type result struct {
	name   string               // without the -GOMAXPROCS suffix
	values map[string][]float64 // "ns/op", "B/op", "allocs/op", custom units
}

func (r *result) median(unit string) (float64, bool) {
	v := slices.Clone(r.values[unit])
	if len(v) == 0 {
		return 0, false
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2], true
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2, true
}

var procsSuffix = regexp.MustCompile(`-\d+$`)

// parse reads go test -bench output: "BenchmarkX/a=b-2  N  v unit  v unit…".
func parse(r io.Reader) []*result {
	var order []*result
	byName := map[string]*result{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := procsSuffix.ReplaceAllString(f[0], "")
		res := byName[name]
		if res == nil {
			res = &result{name: name, values: map[string][]float64{}}
			byName[name] = res
			order = append(order, res)
		}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				res.values[f[i+1]] = append(res.values[f[i+1]], v)
			}
		}
	}
	return order
}

// pair is an SDK result and one of its baselines; label names the SDK row,
// with the baseline when the SDK has several.
type pair struct {
	sdk, base *result
	label     string
}

// pairs returns each result that has a baseline, with that baseline.
func pairs(results []*result) []pair {
	byName := map[string]*result{}
	for _, r := range results {
		byName[r.name] = r
	}
	var out []pair
	for _, r := range results {
		parts := strings.Split(r.name, "/")
		for i, p := range parts {
			bases, ok := baselineOf[p]
			if !ok {
				continue
			}
			for _, base := range bases {
				other := slices.Clone(parts)
				other[i] = base
				if b, ok := byName[strings.Join(other, "/")]; ok {
					label := strings.TrimPrefix(r.name, "Benchmark")
					if len(bases) > 1 {
						label += " vs " + base
					}
					out = append(out, pair{sdk: r, base: b, label: label})
				}
			}
			break
		}
	}
	return out
}

func printTable(w io.Writer, results []*result) {
	fmt.Fprintln(w, "| Benchmark | SDK | Baseline | Time ratio | Allocs SDK / baseline | Bytes SDK / baseline |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, p := range pairs(results) {
		sdk, base := p.sdk, p.base
		st, _ := sdk.median("ns/op")
		bt, _ := base.median("ns/op")
		sa, _ := sdk.median("allocs/op")
		ba, _ := base.median("allocs/op")
		sb, _ := sdk.median("B/op")
		bb, _ := base.median("B/op")
		ratio := "n/a"
		if bt > 0 {
			ratio = fmt.Sprintf("%.2f×", st/bt)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s / %s | %s / %s |\n",
			p.label, duration(st), duration(bt), ratio,
			trim(sa), trim(ba), trim(sb), trim(bb))
	}
}

// duration prints ns/op in the unit that suits it.
func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func trim(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
