package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
BenchmarkModelsGet/impl=SDK-2   	   10000	     50000 ns/op	    6000 B/op	      70 allocs/op
BenchmarkModelsGet/impl=Raw-2   	   10000	     40000 ns/op	    5000 B/op	      60 allocs/op
BenchmarkModelsGet/impl=SDK-2   	   10000	     52000 ns/op	    6000 B/op	      70 allocs/op
BenchmarkModelsGet/impl=Raw-2   	   10000	     42000 ns/op	    5000 B/op	      60 allocs/op
BenchmarkModelsGet/impl=SDK-2   	   10000	     90000 ns/op	    6000 B/op	      70 allocs/op
BenchmarkModelsGet/impl=Raw-2   	   10000	     41000 ns/op	    5000 B/op	      60 allocs/op
BenchmarkDispatch/runner/sessions=100-2   100  2500000 ns/op  12.5 p50-µs  900 B/op  9 allocs/op
BenchmarkDispatch/handloop/sessions=100-2 100  2000000 ns/op  10.0 p50-µs  800 B/op  8 allocs/op
BenchmarkTracingOverhead/tracing=none-2  1000  1000 ns/op  10 B/op  1 allocs/op
BenchmarkTracingOverhead/tracing=sdk-2   1000  1500 ns/op  20 B/op  2 allocs/op
BenchmarkLonely/sdk-2   1000  1500 ns/op  20 B/op  2 allocs/op
PASS
ok  	github.com/agentplatform/agentplatform-go	12.3s
`

func TestTablePairsEachVariantWithItsBaselineByMedian(t *testing.T) {
	results := parse(strings.NewReader(sample))
	require.Len(t, results, 7)
	var b strings.Builder
	printTable(&b, results)
	require.Equal(t, `| Benchmark | SDK | Baseline | Time ratio | Allocs SDK / baseline | Bytes SDK / baseline |
|---|---|---|---|---|---|
| ModelsGet/impl=SDK | 52.0 µs | 41.0 µs | 1.27× | 70 / 60 | 6000 / 5000 |
| Dispatch/runner/sessions=100 | 2.50 ms | 2.00 ms | 1.25× | 9 / 8 | 900 / 800 |
| TracingOverhead/tracing=sdk | 1.5 µs | 1.0 µs | 1.50× | 2 / 1 | 20 / 10 |
`, b.String(), "medians, not means; a variant without its baseline is left out")
}
