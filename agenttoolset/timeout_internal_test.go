package agenttoolset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimeoutOfACall(t *testing.T) {
	ts, err := New(t.TempDir(), WithBashTimeout(3*time.Second))
	require.NoError(t, err)
	defer ts.Close()
	for ms, want := range map[float64]time.Duration{
		0:       3 * time.Second, // the toolset's default
		1500:    1500 * time.Millisecond,
		0.25:    time.Millisecond,
		600_000: MaxBashTimeout,
		1e12:    MaxBashTimeout, // capped
		599_999: 599_999 * time.Millisecond,
	} {
		assert.Equal(t, want, ts.timeout(ms), "timeout_ms %v", ms)
	}
	def, err := New(t.TempDir())
	require.NoError(t, err)
	defer def.Close()
	assert.Equal(t, DefaultBashTimeout, def.timeout(0))
	assert.Equal(t, 2*time.Minute, DefaultBashTimeout)
}
